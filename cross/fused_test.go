package cross

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// fusedAllowed lists the functions of the deterministic packages whose
// multiply-adds may fuse on arm64, and why that changes nothing pinned.
var fusedAllowed = map[string]string{
	// Its doc: the bits may differ between architectures; the margin
	// of invertPoissonApprox covers that.
	"github.com/ictal/ictal/classifier.fastExpNeg": "documented approximate",
	// The chain's response, at set-up only: it decides which harmonics
	// get a notch, by a 25 dB threshold no response comes within
	// rounding of.
	"github.com/ictal/ictal/features.biquad.response": "set-up only",
	"github.com/ictal/ictal/features.rejection":       "set-up only",
}

// TestNoFusedMultiplyAdd compiles the packages that promise the same bits
// on every architecture for arm64, where the Go compiler fuses x*y + z
// into one rounding unless the product is converted (float64(x*y)), and
// fails on any FMADD, FMSUB, FNMADD or FNMSUB outside fusedAllowed:
// TestGoldenBits under qemu catches a fused product only where its
// stream reaches one, this finds every one.
func TestNoFusedMultiplyAdd(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	pkgs := []string{"acquire/edf", "features", "classifier", "internal/detmath", "internal/pipeline"}
	args := []string{"build", "-o", os.DevNull}
	for _, p := range pkgs {
		args = append(args, "-gcflags=github.com/ictal/ictal/"+p+"=-S")
	}
	for _, p := range pkgs {
		args = append(args, "github.com/ictal/ictal/"+p)
	}
	cmd := exec.Command(goTool, args...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOARCH=arm64", "GOOS=linux", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build for arm64: %v\n%s", err, tail(out))
	}
	header := regexp.MustCompile(`^(\S+) STEXT`)
	fused := regexp.MustCompile(`\((\S+\.go:\d+)\)\s+F(N?)M(ADD|SUB)D\b`)
	fn, seen, found := "", 0, 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := header.FindStringSubmatch(line); m != nil {
			fn = m[1]
			seen++
			continue
		}
		if m := fused.FindStringSubmatch(line); m != nil {
			found++
			if _, ok := fusedAllowed[fn]; !ok {
				t.Errorf("%s fuses a multiply-add on arm64 at %s: round the product on its own, float64(x*y)", fn, m[1])
			}
		}
	}
	if seen < 100 {
		t.Fatalf("only %d functions in the compiler's listing: the listing was not read\n%s", seen, tail(out))
	}
	if found == 0 {
		t.Fatalf("no fused multiply-add at all in %d functions, not even in fusedAllowed's: the pattern no longer matches the listing", seen)
	}
}

// tail returns the last lines of a command's output, for a failure.
func tail(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}
