"""The app factory, the home page and the JSON error shape for Flask's own errors."""


def test_home_names_the_four_games(client):
    html = client.get("/").get_data(as_text=True)
    for name in ("Tobago", "DAO", "Isla Dorada", "Dragon"):
        assert name in html


def test_unknown_api_path_is_json_404(client):
    resp = client.get("/api/nothing-here")
    assert resp.status_code == 404
    err = resp.get_json()["error"]
    assert err["code"] == "not_found" and err["message"] and "field" in err


def test_wrong_method_on_api_is_json_405(client):
    resp = client.delete("/api/tobago/islands")
    assert resp.status_code == 405
    assert resp.get_json()["error"]["code"] == "method_not_allowed"
