package systemd

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/internal/metrics"
	"github.com/ictal/ictal/internal/metrics/metricstest"
	"github.com/ictal/ictal/internal/pipeline"
)

// promtool returns the path of Prometheus' promtool.
func promtool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: .ci/run installs it with apt-get install prometheus")
	}
	return p
}

// The sample scrape configuration is valid, and the alerting rules fire
// as their unit tests (ictald.rules.test.yml) say: promtool check config,
// promtool test rules.
func TestPrometheusFilesPassPromtool(t *testing.T) {
	tool := promtool(t)
	for _, args := range [][]string{{"check", "config", "prometheus.yml"}, {"test", "rules", "ictald.rules.test.yml"}} {
		cmd := exec.Command(tool, args...)
		cmd.Dir = "prometheus"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

type fakeMQTT struct{}

func (fakeMQTT) Stats() mqtt.Stats { return mqtt.Stats{} }
func (fakeMQTT) Connected() bool   { return true }

// Every ictal_ metric the rules use is one ictald exports.
func TestAlertingRulesUseExportedMetrics(t *testing.T) {
	m := metrics.New(metrics.Options{MQTT: fakeMQTT{}, Checkpoint: filepath.Join(t.TempDir(), "model.ckpt")})
	m.Window(pipeline.Stats{})
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	exported := map[string]bool{}
	for series := range metricstest.Scrape(t, srv.URL) {
		name, _, _ := strings.Cut(series, "{")
		exported[name] = true
	}
	rules, err := os.ReadFile(filepath.Join("prometheus", "ictald.rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	used := regexp.MustCompile(`\bictal_[a-z_]+`).FindAllString(string(rules), -1)
	if len(used) == 0 {
		t.Fatal("no ictal_ metric in the rules")
	}
	for _, name := range used {
		if !exported[name] {
			t.Errorf("the rules use %s, which ictald does not export", name)
		}
	}
}

// README.md shows the scrape configuration and the rules as they are.
func TestREADMEShowsThePrometheusFiles(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"prometheus.yml", "ictald.rules.yml"} {
		b, err := os.ReadFile(filepath.Join("prometheus", f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(readme), indent(string(b))) {
			t.Errorf("README.md does not show systemd/prometheus/%s as it is (indented by 4 spaces)", f)
		}
	}
}

// indent indents every non-empty line by four spaces, as Markdown shows
// code.
func indent(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
