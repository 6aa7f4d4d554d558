def test_help_lists_the_commands(cli_runner):
    code, out, _ = cli_runner("--help")
    assert code == 0
    for command in ("validate", "replay", "selfplay", "schema"):
        assert command in out


def test_missing_file_is_a_message_not_a_traceback(cli_runner):
    code, out, err = cli_runner("validate", "/no/such/file.json")
    assert code == 2
    assert "no such file" in err
    assert "Traceback" not in out + err
