"""The dice tray bridge: a serial line protocol, a layered host driver, a tray simulator,
and the keypad and software dice behind the same roll-source interface.

Layers, each in its own module (as pyserial's threaded Protocol and pymodbus do):

- ``wire``: the protocol's constants (message types, limits, timings, reasons) as enums;
- ``framing``: bytes in, frames out and back; pure, no I/O;
- ``messages``: frames as typed messages (HELLO, ROLL, ACK...), with their validation;
- ``link``: the host's side of a session, sans I/O (handshake, acks, duplicates, silence);
- ``transport``: opening a port with pyserial's ``serial_for_url``, with clear errors;
- ``session``: the thread that runs a link over a transport and reconnects with backoff;
- ``discovery``: finding a tray by USB VID:PID and asking for its HELLO.

Around them: ``owners`` (which coach owns which die, a validated JSON file), ``notices``
(what goes on the queue), ``sources`` (tray, keypad and software dice), ``feed`` (the queue
into a ``companion.match.Match``; refusals reported, never retried), ``sim``, ``faults`` and
``script`` (the simulated tray), and the ``touchline tray-sim`` / ``tray-listen`` commands
(``sim_cli``, ``listen_cli``). The protocol is documented in docs/dice-tray-protocol.md; the
reference firmware is in ``firmware/``.
"""
