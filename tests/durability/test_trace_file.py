"""Trace files stay open between records, yet a record always reaches the file that now has the trace's name."""

from __future__ import annotations

import os

from agent import trace_file
from agent.trace_file import MAX_OPEN, append_line


def test_lines_go_to_the_end_and_the_size_before_each_is_returned(tmp_path):
    path = tmp_path / "trace.jsonl"
    assert append_line(path, b'{"seq": 1}\n') == 0
    assert append_line(path, b'{"seq": 2}\n') == 11
    assert path.read_bytes() == b'{"seq": 1}\n{"seq": 2}\n'


def test_a_trace_deleted_or_replaced_meanwhile_gets_the_next_line_under_its_name(tmp_path):
    path = tmp_path / "run" / "trace.jsonl"
    path.parent.mkdir()
    append_line(path, b"a\n")
    path.unlink()  # the run directory cleared while this process still held the file
    append_line(path, b"b\n")
    assert path.read_bytes() == b"b\n"
    moved = tmp_path / "old.jsonl"
    os.replace(path, moved)
    path.write_bytes(b"new\n")  # another file now has the name
    append_line(path, b"c\n")
    assert path.read_bytes() == b"new\nc\n" and moved.read_bytes() == b"b\n"


def test_another_writer_appending_meanwhile_is_not_overwritten(tmp_path):
    path = tmp_path / "trace.jsonl"
    append_line(path, b"ours\n")
    with path.open("ab") as other:
        other.write(b"theirs\n")
    assert append_line(path, b"ours again\n") == len(b"ours\ntheirs\n")
    assert path.read_bytes() == b"ours\ntheirs\nours again\n"


def test_only_a_few_files_stay_open_however_many_runs_write(tmp_path):
    trace_file.close_all()
    for k in range(MAX_OPEN + 10):
        append_line(tmp_path / f"t{k}.jsonl", b"x\n")
    assert len(trace_file._open) == MAX_OPEN
    append_line(tmp_path / "t0.jsonl", b"y\n")  # closed when others came after it: opened again
    assert (tmp_path / "t0.jsonl").read_bytes() == b"x\ny\n"
    trace_file.close_all()
    assert not trace_file._open
