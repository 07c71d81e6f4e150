"""The page's files under content-hashed names, references rewritten."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from presentation.actions import INTENTS
from web.assets import AssetError, inline_script_hashes, load
from web.page_protocol import CLOSE_CODES, VERSION


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


def test_files_that_refer_to_each_other_are_an_error(tmp_path: Path) -> None:
    write(tmp_path, {"index.html": '<script src="@asset(a.js)"></script>',
                     "a.js": 'import "./@asset(b.js)";', "b.js": 'import "./@asset(a.js)";'})
    with pytest.raises(AssetError, match="refer to each other"):
        load(tmp_path)


def test_a_module_is_named_after_what_it_imports_whatever_its_name(tmp_path: Path) -> None:
    # "zz.js" sorts last and imports "aa.js", which imports "mm.js": each must be
    # named before the file that names it, whatever the alphabet says.
    write(tmp_path, {"index.html": '<script src="@asset(zz.js)"></script>',
                     "zz.js": 'import "./@asset(aa.js)";', "aa.js": 'import "./@asset(mm.js)";',
                     "mm.js": "export {};"})
    assets = load(tmp_path, generated={})
    named = {name.removeprefix("assets/").split(".")[0]: name.removeprefix("assets/")
             for name in assets if name != "index.html"}
    assert named["mm"] in assets["assets/" + named["aa"]].body.decode()
    assert named["aa"] in assets["assets/" + named["zz"]].body.decode()


def test_the_pages_module_graph_names_every_module_after_its_imports() -> None:
    assets = load()
    page = assets["index.html"].body.decode()
    found = re.search(r"const graph = (\{.*?\});\n", page)
    assert found, "the page's inline script holds no module graph"
    graph = json.loads(found.group(1))
    modules = {name.removeprefix("assets/") for name, asset in assets.items()
               if asset.content_type == "text/javascript"}
    listed = [name for name, _imports in graph["modules"]]
    # Every module, once, so that the page asks for them all at once.
    assert sorted(listed) == sorted(modules)
    assert graph["main"] == listed[-1] or graph["main"] in listed
    for place, (name, imports) in enumerate(graph["modules"]):
        body = assets["assets/" + name].body.decode()
        # What each imports is exactly what its text imports, each listed before it.
        assert sorted(imports) == sorted(re.findall(r'from "\./([\w.-]+\.js)"', body)), name
        assert all(listed.index(imported) < place for imported in imports), name
    # The page's policy allows that one inline script by its hash, and no other.
    assert len(inline_script_hashes(assets["index.html"].body)) == 1


def test_the_pages_protocol_module_is_written_from_the_servers_protocol() -> None:
    assets = load()
    (module,) = [a for name, a in assets.items() if name.startswith("assets/protocol.")]
    text = module.body.decode()
    assert f"export const VERSION = Object.freeze({VERSION});" in text
    for op in INTENTS:
        assert f'"{op}": "{op}"' in text
    for code in CLOSE_CODES.values():
        assert str(code) in text
