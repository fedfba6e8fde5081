package ads1299

import (
	"errors"
	"strings"
	"testing"
)

// Open needs an ADS1299 to succeed; what can be checked without hardware is
// that its failures name what is missing. (The SPI port is opened after the
// pins are found, so a missing port cannot be reached on a host without
// GPIOs.)
func TestOpenNamesWhatIsMissing(t *testing.T) {
	tests := []struct {
		name                    string
		spi, drdy, reset, start string
		wantMsg                 string
		wantErr                 error
	}{
		{"no DRDY pin name", "", "", "", "", "a DRDY pin name is required", ErrOpts},
		{"unknown DRDY pin", "", "ICTAL_NO_SUCH_GPIO", "", "", `DRDY pin "ICTAL_NO_SUCH_GPIO": no such GPIO`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Open(Wiring{SPI: tt.spi, DRDY: tt.drdy, Reset: tt.reset, Start: tt.start}, nil)
			if d != nil || err == nil {
				t.Fatalf("Open = %v, %v; want an error", d, err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Open: %v; want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Open: %q does not say %q", err, tt.wantMsg)
			}
		})
	}
}
