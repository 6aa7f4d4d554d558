"""The viewer's blueprints, one per area (see ``viewer.app.BLUEPRINTS``)."""
