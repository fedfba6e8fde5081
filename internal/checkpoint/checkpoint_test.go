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
	"syscall"
	"testing"
	"time"
)

func TestSaveLoad(t *testing.T) {
	p := filepath.Join(t.TempDir(), "model.ckpt")
	if _, err := Load(p); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	for _, data := range [][]byte{[]byte("first"), bytes.Repeat([]byte{7}, 1<<20), {}} {
		if err := Save(p, data); err != nil {
			t.Fatal(err)
		}
		got, err := Load(p)
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
	if got, _ := Load(p); string(got) != "good" {
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
		b, err := Load(p)
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
