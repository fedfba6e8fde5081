package mqtt

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/eclipse/paho.mqtt.golang/packets"
)

// encodePacket returns p as it goes on the wire, and in a packet file.
func encodePacket(t testing.TB, p packets.ControlPacket) []byte {
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestStoreSetsAsideDamagedFiles: packet files damaged on disk (cut, with
// bytes after the packet, a header declaring 256 MB, larger than any
// packet the publisher sends, empty) are set aside as .CORRUPT when read,
// with an ERROR naming the file; the good ones around them are served.
func TestStoreSetsAsideDamagedFiles(t *testing.T) {
	good := encodePacket(t, testPacket("ictal/ward-7/bed-3/alert", 1, 100))
	files := map[string][]byte{
		"o.1": good,
		"o.2": good[:len(good)-10],
		"o.3": append(append([]byte(nil), good...), 0, 0),
		"o.4": {0x32, 0xff, 0xff, 0xff, 0x7f, 0, 5, 'a'}, // a PUBLISH of 268435455 bytes
		"o.5": append([]byte{0x32, 0xff, 0xff, 0xff, 0x7f}, make([]byte, maxPacketSize)...),
		"o.6": {},
		"o.7": {0x32, 0x80, 0x80, 0x80, 0x80, 0x01}, // a length of five bytes
		"o.8": good,
	}
	dir := t.TempDir()
	for k, b := range files {
		if err := os.WriteFile(filepath.Join(dir, k+storeMsgExt), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	log, logs := testLogger()
	s, err := newStore(dir, DefaultStoreMemory, nil, nil, log)
	if err != nil {
		t.Fatal(err)
	}
	for k := range files {
		p := s.Get(k)
		if k == "o.1" || k == "o.8" {
			if pp, ok := p.(*packets.PublishPacket); !ok || len(pp.Payload) != 100 {
				t.Errorf("%s: %v, want the packet", k, p)
			}
			continue
		}
		if p != nil {
			t.Errorf("%s: %v, want nothing", k, p)
		}
		if _, err := os.Stat(filepath.Join(dir, k+storeCorruptExt)); err != nil {
			t.Errorf("%s not set aside: %v", k, err)
		}
		if !strings.Contains(logs.String(), k+storeCorruptExt) {
			t.Errorf("no log line names %s%s:\n%s", k, storeCorruptExt, logs)
		}
	}
	// All keeps the order the files were written in, which the map's
	// iteration order chose: compare the keys only.
	if keys := slices.Sorted(slices.Values(s.All())); !slices.Equal(keys, []string{"o.1", "o.8"}) {
		t.Errorf("All after reading: %v, want o.1 and o.8", keys)
	}
}

// TestReadPacketFileAllocatesWhatTheFileHolds: a header declaring the
// largest MQTT packet (256 MB) in an 8-byte file is refused without
// allocating for it (paho's ReadPacket alone allocates the 256 MB first).
func TestReadPacketFileAllocatesWhatTheFileHolds(t *testing.T) {
	huge := []byte{0x32, 0xff, 0xff, 0xff, 0x7f, 0, 5, 'a'}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readPacketFile(bytes.NewReader(huge))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "declares a packet of 268435460 bytes, the file holds 8") {
		t.Errorf("error %v, want the declared and the real size", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("allocated %d bytes for an 8-byte file", n)
	}
}

// FuzzReadPacketFile: whatever a packet file holds, readPacketFile returns
// a packet or an error, never a panic, and never accepts a file larger
// than any packet the publisher sends.
func FuzzReadPacketFile(f *testing.F) {
	f.Add(encodePacket(f, testPacket("ictal/ward-7/bed-3/alert", 1, 20)))
	f.Add(encodePacket(f, packets.NewControlPacket(packets.Pubrel)))
	f.Add([]byte{0x32, 0xff, 0xff, 0xff, 0x7f, 0, 5, 'a'})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := readPacketFile(bytes.NewReader(b))
		if err != nil {
			if p != nil {
				t.Fatal("a packet with an error")
			}
			return
		}
		if p == nil || len(b) > maxPacketSize {
			t.Fatalf("a file of %d bytes accepted as %v", len(b), p)
		}
	})
}
