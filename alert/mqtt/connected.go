package mqtt

// Connected reports whether the publisher is connected to a broker now
// (the connection is up and the broker accepted it). While it is not,
// alerts wait in the store and scores are dropped (Stats).
func (m *Publisher) Connected() bool { return m.client.IsConnectionOpen() }
