package openbci

import (
	"testing"

	"github.com/ictal/ictal/acquire"
)

// BenchmarkDecode measures decoding per packet of the GUI recording: one
// frame per packet for the Cyton, one per two packets with the Daisy.
func BenchmarkDecode(b *testing.B) {
	samples := loadGUI(b, 512)
	daisy, _ := daisyScript(samples)
	for _, bc := range []struct {
		name  string
		cfg   Config
		input []byte
	}{
		{"cyton", Config{}, guiStream(samples)},
		{"daisy", Config{Daisy: true}, daisy},
	} {
		b.Run(bc.name, func(b *testing.B) {
			d, err := NewDecoder(bc.cfg)
			if err != nil {
				b.Fatal(err)
			}
			f := acquire.NewFrame(d.Channels())
			b.SetBytes(PacketSize)
			b.ReportAllocs()
			in := bc.input
			for b.Loop() {
				// One packet per iteration.
				if len(in) < PacketSize {
					in = bc.input
				}
				p := in[:PacketSize]
				in = in[PacketSize:]
				for len(p) > 0 {
					n, _, err := d.Decode(p, f)
					if err != nil {
						b.Fatal(err)
					}
					p = p[n:]
				}
			}
		})
	}
}
