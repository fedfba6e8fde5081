package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire/openbci/openbcitest"

	"github.com/ictal/ictal/acquire/openbci"
	"github.com/ictal/ictal/internal/datadir"
)

// newCaptureBoard plays a Cyton (with a Daisy when daisy is set) on a
// pseudo-terminal; ictal capture opens the returned path with the real
// serial code.
func newCaptureBoard(t *testing.T, daisy bool, script []byte) (*openbcitest.Board, string) {
	t.Helper()
	p := openbcitest.OpenPty(t)
	return openbcitest.NewBoard(t, p, daisy, script), p.Path
}

// guiRows reads the µV of the first n samples of the shared OpenBCI GUI
// recording (Cyton, 8 channels, gain 24).
func guiRows(t *testing.T, n int) [][8]float64 {
	t.Helper()
	data, err := os.ReadFile(datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][8]float64
	for _, line := range strings.Split(string(data), "\n") {
		if len(rows) == n {
			break
		}
		if line == "" || line[0] == '%' || strings.HasPrefix(line, "Sample") {
			continue
		}
		f := strings.Split(line, ",")
		var r [8]float64
		for i := range r {
			if r[i], err = strconv.ParseFloat(strings.TrimSpace(f[1+i]), 64); err != nil {
				t.Fatalf("row %d: %v", len(rows), err)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// guiPackets encodes rows as Cyton packets with counters from first,
// skipping the rows in drop.
func guiPackets(rows [][8]float64, drop map[int]bool) []byte {
	scale, _ := openbci.Scale(24)
	var b []byte
	for i, r := range rows {
		if drop[i] {
			continue
		}
		p := openbci.Packet{Counter: uint8(i), Footer: openbci.FooterAccel}
		for c, v := range r {
			p.Counts[c] = int32(math.Round(v / scale))
		}
		b = openbci.AppendPacket(b, &p)
	}
	return b
}

func parseCSV(t *testing.T, out string) (header []string, rows [][]string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if lines[len(lines)-1] != "" {
		t.Fatalf("output does not end with a full line: %q", lines[len(lines)-1])
	}
	header = strings.Split(lines[0], ",")
	for _, l := range lines[1 : len(lines)-1] {
		rows = append(rows, strings.Split(l, ","))
	}
	return header, rows
}

func TestCaptureOpenBCI(t *testing.T) {
	rows := guiRows(t, 60)
	board, port := newCaptureBoard(t, false, guiPackets(rows, map[int]bool{30: true}))
	var stdout, stderr bytes.Buffer
	code := run([]string{"capture", "-source", "openbci", "-port", port, "-frames", "50"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	header, got := parseCSV(t, stdout.String())
	if want := "seq,time,EEG 1,EEG 2,EEG 3,EEG 4,EEG 5,EEG 6,EEG 7,EEG 8,flags"; strings.Join(header, ",") != want {
		t.Errorf("header %q, want %q", strings.Join(header, ","), want)
	}
	if len(got) != 50 {
		t.Fatalf("%d rows, want 50", len(got))
	}
	scale, _ := openbci.Scale(24)
	for k, r := range got {
		seq := k
		flags := "ok"
		if k >= 30 {
			seq = k + 1 // row 30 was dropped
		}
		if k == 30 {
			flags = "gap"
		}
		if r[0] != strconv.Itoa(seq) || r[1] != fmt.Sprintf("%.3f", float64(seq)*0.004) || r[10] != flags {
			t.Fatalf("row %d: %v, want seq %d flags %s", k, r, seq, flags)
		}
		for c := range 8 {
			v, err := strconv.ParseFloat(r[2+c], 64)
			if err != nil || math.Abs(v-rows[seq][c]) > scale {
				t.Fatalf("row %d channel %d: %q, GUI says %g", k, c+1, r[2+c], rows[seq][c])
			}
		}
	}
	if !strings.Contains(stderr.String(), "50 frames, 1 lost") {
		t.Errorf("stderr lacks the summary: %s", stderr.String())
	}
	waitFor(t, func() bool { return board.Commands() == "svcbs" }, "board to receive \"svcbs\", got %q", board.Commands)
}

func TestCaptureDaisyWithGain(t *testing.T) {
	var script []byte
	for counter := 1; counter <= 12; counter++ {
		p := openbci.Packet{Counter: uint8(counter), Footer: openbci.FooterAccel}
		for c := range p.Counts {
			p.Counts[c] = int32(1000*counter + c)
		}
		script = openbci.AppendPacket(script, &p)
	}
	board, port := newCaptureBoard(t, true, script)
	var stdout, stderr bytes.Buffer
	code := run([]string{"capture", "-port", port, "-daisy", "-gain", "12", "-frames", "5"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	header, got := parseCSV(t, stdout.String())
	if len(header) != 19 || header[17] != "EEG 16" || len(got) != 5 {
		t.Fatalf("header %v, %d rows", header, len(got))
	}
	scale, _ := openbci.Scale(12)
	for k, r := range got {
		if r[0] != strconv.Itoa(k) || r[1] != fmt.Sprintf("%.3f", float64(k)*0.008) || r[18] != "ok" {
			t.Fatalf("row %d: %v", k, r)
		}
		for c := range 16 {
			counter := 2*k + 1 + c/8 // odd packet: channels 1–8, even: 9–16
			want := float64(1000*counter+c%8) * scale
			if v, _ := strconv.ParseFloat(r[2+c], 64); math.Abs(v-want) > 1e-4 {
				t.Fatalf("row %d channel %d: %s, want %.4f", k, c+1, r[2+c], want)
			}
		}
	}
	waitFor(t, func() bool { return board.Commands() == "svCbs" }, "board to receive \"svCbs\", got %q", board.Commands)
}

// TestCaptureStopsOnSIGINT runs capture without -frames and interrupts it
// as a user pressing ^C would.
func TestCaptureStopsOnSIGINT(t *testing.T) {
	rows := guiRows(t, 256)
	var script []byte
	for range 20 { // 20 × 256 packets: longer than the test
		script = append(script, guiPackets(rows, nil)...)
	}
	board, port := newCaptureBoard(t, false, script)
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"capture", "-port", port}, pw, &stderr)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var out strings.Builder
	for i := 0; i < 60 && sc.Scan(); i++ {
		out.WriteString(sc.Text() + "\n")
	}
	rest := make(chan string)
	go func() { // keep draining, or capture blocks writing
		var b strings.Builder
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
		}
		rest <- b.String()
	}()
	// By now the command has installed its handler: the signal cancels
	// the capture instead of killing the test.
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := <-done
	if code != 0 {
		t.Fatalf("exit %d after SIGINT: %s", code, stderr.String())
	}
	all := out.String() + <-rest
	_, got := parseCSV(t, all)
	if len(got) < 59 {
		t.Fatalf("%d rows", len(got))
	}
	for k, r := range got {
		if len(r) != 11 || r[0] != strconv.Itoa(k) {
			t.Fatalf("row %d: %v", k, r)
		}
	}
	waitFor(t, func() bool { return strings.HasSuffix(board.Commands(), "bs") }, "board to receive 's', got %q", board.Commands)
}

func TestCaptureErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"help", []string{"-h"}, 0, "usage: ictal capture"},
		{"port missing", []string{"-frames", "3"}, 1, "-port is required"},
		{"unknown source", []string{"-source", "cyton", "-port", "/dev/null"}, 1, `-source "cyton": want openbci or ads1299`},
		{"help names the sources", []string{"-h"}, 0, "Sources: openbci, an OpenBCI Cyton"},
		{"ads1299 needs its DRDY pin", []string{"-source", "ads1299"}, 1, "-drdy is required for an ads1299"},
		{"ads1299 reaches the driver", []string{"-source", "ads1299", "-drdy", "NO-SUCH-GPIO", "-spi", "/nonexistent/spidev9.9"}, 1, "ads1299: "},
		{"ads1299 gain", []string{"-source", "ads1299", "-drdy", "GPIO25", "-gain", "5"}, 1, "-gain: openbci: invalid gain: 5"},
		{"gain not offered", []string{"-port", "/dev/null", "-gain", "5"}, 1, "-gain: openbci: invalid gain: 5"},
		{"negative frames", []string{"-port", "/dev/null", "-frames", "-1"}, 1, "-frames -1"},
		{"extra argument", []string{"-port", "/dev/null", "now"}, 1, `unexpected argument "now"`},
		{"port does not exist", []string{"-port", "/nonexistent/ttyUSB9"}, 1, "openbci: open /nonexistent/ttyUSB9"},
		{"bad flag", []string{"-baud", "9"}, 1, "flag provided but not defined: -baud"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"capture"}, tt.args...), &stdout, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr.String(), tt.code, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q", stdout.String())
			}
		})
	}
}

// waitFor polls cond until it holds. It has no deadline (it had two
// seconds, which a loaded machine can exceed): what it waits for must happen, and a wait
// that never ends is a hang, which go test's -timeout reports. format and
// arg describe the wait, for the log of the polls that find it unmet.
func waitFor(t *testing.T, cond func() bool, format string, arg func() string) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i%500 == 499 { // every 5 s or so: say what it is still waiting for
			t.Logf("still waiting for "+format, arg())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
