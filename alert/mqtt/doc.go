// Package mqtt carries ictal's alerts to clinicians over MQTT and their
// feedback back: Publisher is the alert.Sink that publishes a bed's
// alerts, event ends, status and scores (the payloads of package alert,
// DESIGN.md's MQTT contract) with QoS 1 in a persistent session and an
// on-disk store, subscribes to the bed's feedback topic and hands valid
// feedback on as alert.Labels; StartBroker runs an embedded broker for
// demos and single-board installations; Connection holds what every
// client needs to reach a broker (URLs, TLS, login).
//
// The domain — the decision rule, the events, the payload encoders and
// the Sink interfaces — lives in package alert, which imports no MQTT
// code, so the pipeline and every tool that only decides or writes files
// do not link an MQTT client. alert/README.md documents the topics, the
// payloads, the broker set-up (TLS, per-bed ACLs) and what clinicians see.
package mqtt
