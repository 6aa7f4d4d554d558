"""Services: what the blueprints do, importable by any of them (a blueprint never imports another)."""
