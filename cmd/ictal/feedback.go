package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ictal/ictal/alert"
)

// runFeedback implements `ictal feedback -broker URL -site S -bed B
// (-confirm ID | -reject ID | -seizure START..END | -non-seizure START..END)`
// with the TLS and auth flags: it publishes one feedback message with QoS
// 1 and returns once the broker acknowledged it, or an error.
func runFeedback(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("feedback", "usage: ictal feedback -broker URL -site S -bed B (-confirm ID | -reject ID | -seizure START..END | -non-seizure START..END) [flags]\n"+
		"Sends feedback with QoS 1 and waits for the broker's acknowledgement; prints the payload sent.\n"+
		"With -username it goes to …/feedback/from/<username>, so the monitor knows the sender.", stderr)
	cf := addConnFlags(fs, "")
	site := fs.String("site", "", "site of the bed (required)")
	bed := fs.String("bed", "", "bed (required)")
	prefix := fs.String("prefix", "", "topic prefix (default ictal/<site>/<bed>)")
	confirm := fs.String("confirm", "", "confirm the alert with this id: it was a seizure")
	reject := fs.String("reject", "", "reject the alert with this id: it was not a seizure")
	seizure := fs.String("seizure", "", "label START..END (RFC 3339) a seizure")
	nonSeizure := fs.String("non-seizure", "", "label START..END (RFC 3339) free of seizures")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if cf.broker == "" || *site == "" || *bed == "" {
		return errors.New("-broker, -site and -bed are required")
	}
	var payload []byte
	set := 0
	for _, a := range []struct {
		val, verdict string
		interval     bool
	}{{*confirm, alert.VerdictConfirmed, false}, {*reject, alert.VerdictRejected, false}, {*seizure, "seizure", true}, {*nonSeizure, "non-seizure", true}} {
		if a.val == "" {
			continue
		}
		set++
		if !a.interval {
			payload = append(alert.AppendJSONString(append(payload[:0], `{"v":1,"alert_id":`...), a.val), `,"verdict":`...)
			payload = append(alert.AppendJSONString(payload, a.verdict), '}')
			continue
		}
		start, end, ok := strings.Cut(a.val, "..")
		if !ok {
			return fmt.Errorf("-%s %q: want START..END", a.verdict, a.val)
		}
		payload = append(alert.AppendJSONString(append(payload[:0], `{"v":1,"start":`...), start), `,"end":`...)
		payload = append(alert.AppendJSONString(payload, end), `,"label":`...)
		payload = append(alert.AppendJSONString(payload, a.verdict), '}')
	}
	if set != 1 {
		return errors.New("give exactly one of -confirm, -reject, -seizure, -non-seizure")
	}
	// The daemon validates as strictly; refuse here what it would drop.
	if _, err := alert.ParseFeedback(payload, time.Now()); err != nil {
		return err
	}
	topic := *prefix
	if topic == "" {
		topic = "ictal/" + *site + "/" + *bed
	}
	topic = strings.TrimSuffix(topic, "/") + "/feedback"
	if cf.username != "" {
		// Under the sender's own name, which the broker's ACL keeps for
		// that user: the monitor then knows who sent it.
		topic += "/from/" + cf.username
	}
	cl, err := cf.connect("ictal-feedback", session{})
	if err != nil {
		return err
	}
	defer cl.Disconnect(250)
	tok := cl.Publish(topic, 1, false, payload)
	if !tok.WaitTimeout(cf.timeout) {
		return fmt.Errorf("publish to %s: no acknowledgement within %v", topic, cf.timeout)
	}
	if err := tok.Error(); err != nil {
		return fmt.Errorf("publish to %s: %w", topic, err)
	}
	// What was sent, as one JSON line: {"type":"feedback","topic":…,"payload":{…}}.
	line := alert.AppendJSONString([]byte(`{"type":"feedback","topic":`), topic)
	line = append(append(append(line, `,"payload":`...), payload...), "}\n"...)
	stdout.Write(line)
	fmt.Fprintf(stderr, "ictal feedback: acknowledged by %s on %s\n", cf.broker, topic)
	return nil
}
