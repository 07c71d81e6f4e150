"""The page's files under content-hashed names, references rewritten."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from web.assets import AssetError, load


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_each_file_but_the_page_is_served_under_a_name_that_changes_with_it(
    tmp_path: Path,
) -> None:
    write(tmp_path, {"index.html": '<script src="@asset(table.js)"></script>',
                     "table.js": 'import x from "./@asset(vendor/sdk.js)";',
                     "vendor/sdk.js": "export default 1;"})
    first = load(tmp_path)
    write(tmp_path, {"vendor/sdk.js": "export default 2;"})
    second = load(tmp_path)
    assert "index.html" in first
    sdk_first = next(name for name in first if "vendor-sdk." in name)
    sdk_second = next(name for name in second if "vendor-sdk." in name)
    assert sdk_first != sdk_second
    # The script that imports it changes name too, and so the page names the new one.
    script = next(name for name in second if name.startswith("assets/table."))
    assert sdk_second.removeprefix("assets/") in second[script].body.decode()
    assert script in second["index.html"].body.decode()
    assert second[script].content_type == "text/javascript"


def test_a_reference_to_a_missing_file_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, {"index.html": '<link href="@asset(gone.css)">'})
    with pytest.raises(AssetError, match=r"gone\.css"):
        load(tmp_path)


def test_the_real_page_refers_only_to_files_that_exist() -> None:
    assets = load()
    page = assets["index.html"].body.decode()
    assert "@asset(" not in page
    for name, asset in assets.items():
        if asset.content_type.startswith("text/"):
            assert b"@asset(" not in asset.body, name


def test_a_file_that_compresses_is_kept_gzipped_too(tmp_path: Path) -> None:
    write(tmp_path, {"index.html": "<p>page</p>", "big.js": "let a = 1;\n" * 500,
                     "tiny.css": "a{}"})
    assets = load(tmp_path)
    big = next(asset for name, asset in assets.items() if "big." in name)
    tiny = next(asset for name, asset in assets.items() if "tiny." in name)
    assert gzip.decompress(big.gzipped) == big.body and len(big.gzipped) < len(big.body) / 10
    assert tiny.gzipped == b""  # a file gzip would make bigger is served as it is
