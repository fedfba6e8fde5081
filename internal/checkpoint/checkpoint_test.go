package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSaveLoad(t *testing.T) {
	p := filepath.Join(t.TempDir(), "model.ckpt")
	if _, err := Load(p, maxTest); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	for _, data := range [][]byte{[]byte("first"), bytes.Repeat([]byte{7}, 1<<20), {}} {
		if err := Save(p, data); err != nil {
			t.Fatal(err)
		}
		got, err := Load(p, maxTest)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("Load: %d bytes, %v; want %d bytes", len(got), err, len(data))
		}
	}
	if n, _ := CleanTemp(p); n != 0 {
		t.Errorf("Save left %d temporary files", n)
	}
}

func TestSaveFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "model.ckpt")
	if err := Save(p, []byte("good")); err != nil {
		t.Fatal(err)
	}
	// A read-only directory: the temporary file cannot be created.
	if os.Getuid() != 0 { // root ignores permissions
		os.Chmod(dir, 0o500)
		if err := Save(p, []byte("new")); err == nil {
			t.Error("Save into a read-only directory succeeded")
		}
		os.Chmod(dir, 0o700)
	}
	// Saving into a path whose directory does not exist fails cleanly.
	if err := Save(filepath.Join(dir, "nope", "model.ckpt"), []byte("x")); err == nil {
		t.Error("Save into a missing directory succeeded")
	}
	// Rename onto a directory fails; the temporary file is removed.
	os.Mkdir(filepath.Join(dir, "adir"), 0o700)
	os.WriteFile(filepath.Join(dir, "adir", "f"), nil, 0o600)
	if err := Save(filepath.Join(dir, "adir"), []byte("x")); err == nil {
		t.Error("Save over a non-empty directory succeeded")
	}
	if n, _ := CleanTemp(filepath.Join(dir, "adir")); n != 0 {
		t.Errorf("failed Save left %d temporary files", n)
	}
	if got, _ := Load(p, maxTest); string(got) != "good" {
		t.Errorf("old checkpoint now %q", got)
	}
}

func TestSetAside(t *testing.T) {
	p := filepath.Join(t.TempDir(), "model.ckpt")
	os.WriteFile(p, []byte("garbage"), 0o600)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	dst, err := SetAside(p, now)
	if err != nil {
		t.Fatal(err)
	}
	if dst != p+".corrupt-20261121T120000Z" {
		t.Errorf("set aside as %s", dst)
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Error("corrupt checkpoint still in place")
	}
	if b, _ := os.ReadFile(dst); string(b) != "garbage" {
		t.Error("evidence lost")
	}
}

// version builds checkpoint number n: a length, n, random filler of a size
// that varies with n, and a SHA-256 of the rest, so a torn or mixed file is
// detectable.
func version(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	body := make([]byte, 16+(1<<20)+r.IntN(1<<20))
	binary.LittleEndian.PutUint64(body, uint64(len(body)))
	binary.LittleEndian.PutUint64(body[8:], uint64(n))
	for i := 16; i < len(body); i++ {
		body[i] = byte(r.Uint32())
	}
	sum := sha256.Sum256(body)
	return append(body, sum[:]...)
}

func check(b []byte) (int, error) {
	if len(b) < 16+32 {
		return 0, fmt.Errorf("%d bytes", len(b))
	}
	body, sum := b[:len(b)-32], b[len(b)-32:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return 0, errors.New("checksum mismatch: torn write")
	}
	if binary.LittleEndian.Uint64(body) != uint64(len(body)) {
		return 0, errors.New("length mismatch")
	}
	return int(binary.LittleEndian.Uint64(body[8:])), nil
}

// TestKilledMidwayLeavesLastGood runs Save in a loop in a child process and
// kills it with SIGKILL at random moments, then checks the checkpoint is
// always a complete version, never a torn one.
func TestKilledMidwayLeavesLastGood(t *testing.T) {
	if p := os.Getenv("ICTAL_CHECKPOINT_CHILD"); p != "" {
		// Versions are made from one random buffer, so nearly all the
		// child's time is spent inside Save, where the kills should land.
		base := version(1)
		for n := 1; ; n++ {
			binary.LittleEndian.PutUint64(base[8:], uint64(n))
			sum := sha256.Sum256(base[:len(base)-32])
			copy(base[len(base)-32:], sum[:])
			if err := Save(p, base); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "model.ckpt")
	if err := Save(p, version(0)); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(42, 42))
	midway := 0 // rounds where the kill left a temporary file: it hit a Save
	// Kill at random moments until three kills have landed inside a Save
	// (a temporary file was left behind), at most 60 times.
	for round := 0; round < 60 && midway < 3; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledMidwayLeavesLastGood$")
		cmd.Env = append(os.Environ(), "ICTAL_CHECKPOINT_CHILD="+p)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(30+r.IntN(100)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
			t.Fatalf("child did not die by the signal: %v", err)
		}
		b, err := Load(p, maxTest)
		if err != nil {
			t.Fatal(err)
		}
		n, err := check(b)
		if err != nil {
			t.Fatalf("round %d: checkpoint after kill is damaged: %v", round, err)
		}
		t.Logf("round %d: killed after version %s", round, strconv.Itoa(n))
		if k, _ := CleanTemp(p); k > 0 {
			midway++
		}
	}
	if midway == 0 {
		t.Error("no kill landed inside a Save: the test proved nothing")
	}
}

// maxTest bounds the files the tests load: more than the largest they
// write (version's 2 MiB).
const maxTest = 4 << 20

// TestReadRefusesWhatIsNoCheckpoint: a checkpoint path holding anything
// but a regular file of at most the bound — a link to /dev/zero, which
// streams zeros for ever, a FIFO, whose open blocks until a writer
// comes, a file larger than the bound — is refused with an error naming
// the path and what it is, without blocking or reading it; a link to a
// regular file is followed.
func TestReadRefusesWhatIsNoCheckpoint(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.ckpt")
	if err := os.WriteFile(good, []byte("model"), 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.ckpt")
	fifo := filepath.Join(dir, "fifo.ckpt")
	big := filepath.Join(dir, "big.ckpt")
	link := filepath.Join(dir, "link.ckpt")
	if err := errors.Join(os.Symlink("/dev/zero", zero), syscall.Mkfifo(fifo, 0o600), os.Symlink(good, link)); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(f.Truncate(maxTest+1), f.Close()); err != nil { // sparse: no blocks written
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		max        int64
		want       error  // nil: read
		what       string // in the error
	}{
		{"link to /dev/zero", zero, maxTest, ErrNotRegular, "character device, through a symbolic link to /dev/zero"},
		{"FIFO", fifo, maxTest, ErrNotRegular, "not a regular file (a FIFO)"},
		{"directory", dir, maxTest, ErrNotRegular, "directory"},
		{"larger than the bound", big, maxTest, ErrTooLarge, fmt.Sprintf("%d bytes, more than the %d", maxTest+1, maxTest)},
		// A regular file whose size says 0 and which holds more (procfs):
		// the bound holds on what is read, not only on the size.
		{"longer than its size says", "/proc/self/status", 16, ErrTooLarge, "grew past 16 bytes"},
		{"link to a regular file", link, maxTest, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type result struct {
				b   []byte
				err error
			}
			done := make(chan result, 1)
			go func() {
				b, err := Load(tt.path, tt.max)
				done <- result{b, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(time.Minute): // a failure detector, not a timing requirement
				if tt.path == fifo { // release the blocked open, so the test ends
					if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
						w.Close()
					}
				}
				t.Fatalf("Load(%s) did not return", tt.path)
			}
			if tt.want == nil {
				if r.err != nil || string(r.b) != "model" {
					t.Fatalf("Load = %q, %v", r.b, r.err)
				}
				return
			}
			if !errors.Is(r.err, tt.want) || !strings.Contains(r.err.Error(), tt.path+": ") || !strings.Contains(r.err.Error(), tt.what) {
				t.Errorf("Load = %v; want %v naming %s and %q", r.err, tt.want, tt.path, tt.what)
			}
		})
	}
}
