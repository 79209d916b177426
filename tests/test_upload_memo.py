"""An upload is parsed once per caller's memo (issue 29: no shared dict in the process).

The Your data page inspects a file (``inspect_upload``) and then reads it for the checks (``read_source`` of an
``upload`` description): both go through the parse block ``parse_upload`` of the caller's memo, so the file is
parsed once; two memos (two sessions, two scripts) never share a parse, and nothing is held by the module.
"""

import pytest

import ikviz.data._parse as _parse
from ikviz.data import resolve
from ikviz.data.upload import FileBytes, inspect_file, read_table
from ikviz.experiments import your_data as exp
from ikviz.runner import RunMemo
from ikviz.store import ResultsStore

RAW = b"x;y;kind\n" + b"".join(f"{i},5;{i % 7};{'ab'[i % 2]}\n".encode() for i in range(60))


@pytest.fixture
def parses(monkeypatch):
    """The files parsed so far (each call of the one parser, counted)."""
    seen = []
    real = _parse.parse

    def counted(raw, filename, *args, **kwargs):
        seen.append(filename)
        return real(raw, filename, *args, **kwargs)

    monkeypatch.setattr(_parse, "parse", counted)
    return seen


def test_inspecting_then_reading_one_upload_parses_it_once_in_one_memo(parses):
    file = FileBytes(RAW, "mine.csv")
    memo = RunMemo()
    info = memo(exp.inspect_upload)(file, "drop", None)   # as the page: missing values other than "error"
    got = resolve(exp.upload_data(file, label=info.label_guess, missing="median"), memo=memo)
    assert info.label_guess == "kind" and got.X.shape == (60, 2)
    assert parses == ["mine.csv"]
    # other column choices of the same file and the same parse choice: still that one parse
    resolve(exp.upload_data(file, label=None, missing="drop"), memo=memo)
    assert parses == ["mine.csv"]
    # "error" for missing values is another parse choice (LIBSVM lines that are not numbers): one more parse
    resolve(exp.upload_data(file, label="kind", missing="error"), memo=memo)
    assert parses == ["mine.csv", "mine.csv"]


def test_the_store_as_memo_shares_the_parse_and_keeps_it_in_memory(parses, tmp_path):
    # as app/uploads.py and the checks: the store's calls with persist=False, the read nested as read_source
    store = ResultsStore(workers=1, directory=tmp_path)
    file = FileBytes(RAW, "mine.csv")
    info = store.call(exp.inspect_upload, (file, "drop", None), {}, persist=False)
    source = exp.upload_data(file, label=info.label_guess)
    data = store.call(exp.load_source, (source, 50, 0), {}, persist=False)
    assert len(data.X) == 50 and parses == ["mine.csv"]
    assert store.disk_entries == 0   # an upload's parse never reaches the disk


def test_two_memos_never_share_a_parse_and_no_memo_holds_none(parses):
    file = FileBytes(RAW, "mine.csv")
    for memo in (RunMemo(), RunMemo()):
        memo(exp.inspect_upload)(file, "drop", None)
        resolve(exp.upload_data(file, label="kind"), memo=memo)
    assert parses == ["mine.csv"] * 2   # one per memo
    inspect_file(RAW, "mine.csv")
    read_table(RAW, label="kind", filename="mine.csv")
    assert len(parses) == 4   # without a memo, each call parses: nothing held in the process
    assert not [name for name in vars(_parse) if name.upper().startswith("_CACHE")]


def test_a_parse_error_is_raised_to_each_caller_and_not_held(parses):
    memo = RunMemo()
    bad = FileBytes(b"a,b\n1,2,3\n4,5\n", "bad.csv")
    for _ in range(2):
        with pytest.raises(ValueError, match="columns of the header"):
            memo(exp.inspect_upload)(bad, "drop", None)
    assert len(parses) == 1   # RunMemo keeps the failure for its run: the same message, no second parse
    with pytest.raises(ValueError, match="columns of the header"):
        resolve(exp.upload_data(bad, label=None), memo=RunMemo())


def test_a_held_parse_counts_its_table_in_the_stores_bound():
    from ikviz.data.upload import parse_upload
    from ikviz.store.storage import nbytes

    parsed = parse_upload(FileBytes(RAW * 50, "big.csv"))   # the store bounds what it holds by this size
    assert nbytes(parsed) >= parsed.frame.memory_usage(deep=True).sum() > 10_000
