package alert

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"
)

// maxPacketID is the largest MQTT packet identifier; the on-disk store can
// hold at most this many unacknowledged QoS 1 messages.
const maxPacketID = 65535

// renumberStore prepares a persistent store left by an earlier process for
// a new client. paho numbers new messages from 1 upwards and a new process
// does not know the identifiers already on disk until its first connection
// resumes them: a message published before that (an alert raised while
// the broker is still down) would take identifier 1 and overwrite an older
// undelivered alert. So the outbound PUBLISH messages left on disk are
// renumbered into the top of the identifier space (65535 downwards), in
// the order they were stored, before the client opens the store.
//
// It is crash-safe: the messages are first renamed to "renum.<seq>.tmp"
// files, which paho ignores and the next call picks up, then rewritten
// one by one under their new identifiers. It returns how many messages it
// found.
func renumberStore(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("alert: mqtt store: %w", err)
	}
	type leftover struct {
		name string
		mod  time.Time
	}
	var renum []string // pending from an interrupted call, in order
	var publishes []leftover
	next := 0
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, "renum.") && strings.HasSuffix(name, ".tmp") {
			renum = append(renum, name)
			if seq, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "renum."), ".tmp")); err == nil && seq >= next {
				next = seq + 1
			}
			continue
		}
		if !strings.HasPrefix(name, "o.") || !strings.HasSuffix(name, ".msg") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %w", err)
		}
		p, err := packets.ReadPacket(bytes.NewReader(b))
		if err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %s: %w", name, err)
		}
		if _, ok := p.(*packets.PublishPacket); !ok {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %w", err)
		}
		publishes = append(publishes, leftover{name, info.ModTime()})
	}
	if len(renum)+len(publishes) > maxPacketID {
		return 0, fmt.Errorf("alert: mqtt store %s: %d messages, more than MQTT's %d packet identifiers", dir, len(renum)+len(publishes), maxPacketID)
	}
	sort.SliceStable(publishes, func(i, j int) bool {
		if !publishes[i].mod.Equal(publishes[j].mod) {
			return publishes[i].mod.Before(publishes[j].mod)
		}
		return publishes[i].name < publishes[j].name
	})
	// Phase 1: move every stored publish out of paho's sight, in order.
	for _, l := range publishes {
		to := fmt.Sprintf("renum.%06d.tmp", next)
		next++
		if err := os.Rename(filepath.Join(dir, l.name), filepath.Join(dir, to)); err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %w", err)
		}
		renum = append(renum, to)
	}
	sort.Strings(renum) // zero-padded sequence numbers
	// Phase 2: write them back under identifiers counted down from the
	// top, with increasing modification times (paho resends in that order).
	base := time.Now().Add(-time.Duration(len(renum)) * time.Millisecond)
	for i, name := range renum {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %w", err)
		}
		p, err := packets.ReadPacket(bytes.NewReader(b))
		if err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %s: %w", name, err)
		}
		pub, ok := p.(*packets.PublishPacket)
		if !ok {
			return 0, fmt.Errorf("alert: mqtt store: %s: %s, want a PUBLISH", name, p.String())
		}
		pub.MessageID = uint16(maxPacketID - i)
		var buf bytes.Buffer
		if err := pub.Write(&buf); err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %s: %w", name, err)
		}
		key := "o." + strconv.Itoa(int(pub.MessageID))
		tmp := filepath.Join(dir, key+".tmp")
		if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %w", err)
		}
		mod := base.Add(time.Duration(i) * time.Millisecond)
		if err := os.Chtimes(tmp, mod, mod); err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %w", err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, key+".msg")); err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %w", err)
		}
		if err := os.Remove(path); err != nil {
			return 0, fmt.Errorf("alert: mqtt store: %w", err)
		}
	}
	return len(renum), nil
}
