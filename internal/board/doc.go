// Package board is the clinicians' ward board (ictal board): a web server
// for a nursing station that follows every bed of a site over MQTT and
// shows, in a browser, each bed's state and score, the alerts with their
// EEG evidence, and lets a clinician acknowledge an alert's ringing and
// send feedback (confirm, reject, or label a missed seizure) back to the
// bed's monitor.
//
// The server subscribes to ictal/<site>/# with a persistent session so that
// nothing published while it was down is lost, checks every message with
// package alert's strict parsers, keeps the ward's state in memory and
// pushes it to the browsers with Server-Sent Events. Users log in with a
// password (bcrypt, in a users file); every state change needs a session,
// a CSRF token and a same-origin request, and is written to an append-only
// audit log. README.md documents the HTTP contract.
package board
