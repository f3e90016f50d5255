"""Issue 14 §5.4 (engine): a person answering the server holds our requests' timeouts (sans-I/O part)."""

from __future__ import annotations

from sessionkit import ready_session

from inspector.protocol.session import Timeouts


def test_held_deadlines_do_not_expire_and_restart_when_released() -> None:
    session, clock = ready_session(timeouts=Timeouts(request=10))
    rid = session.send_request("tools/call", {"name": "ask"})
    session.pop_outgoing()
    clock.advance(5)
    session.hold_deadlines()
    assert session.deadlines_held
    assert session.next_deadline() is None
    clock.advance(120)  # the person takes two minutes
    assert session.check_timeouts() == []
    assert rid in session.pending
    session.release_deadlines()
    assert not session.deadlines_held
    assert session.next_deadline() == clock.now + 10  # a full period again
    clock.advance(9.9)
    assert session.check_timeouts() == []
    clock.advance(0.2)
    (failed,) = session.check_timeouts()
    assert failed.request_id == rid and failed.kind == "timeout"


def test_holds_nest_and_an_unmatched_release_is_harmless() -> None:
    session, clock = ready_session(timeouts=Timeouts(request=10))
    session.release_deadlines()  # nothing held: nothing happens
    rid = session.send_request("tools/call", {"name": "ask"})
    session.hold_deadlines()
    session.hold_deadlines()
    session.release_deadlines()
    assert session.deadlines_held and session.next_deadline() is None
    clock.advance(30)
    assert session.check_timeouts() == []
    session.release_deadlines()
    assert session.next_deadline() == clock.now + 10
    assert rid in session.pending


def test_max_total_still_applies_while_held() -> None:
    session, clock = ready_session(timeouts=Timeouts(request=10, max_total=30))
    rid = session.send_request("tools/call", {"name": "ask"})
    session.hold_deadlines()
    assert session.next_deadline() == clock.now + 30
    clock.advance(31)
    (failed,) = session.check_timeouts()
    assert failed.request_id == rid and "maximum total time" in failed.reason
