package journal_test

import (
	"log/slog"
	"os"

	"github.com/ictal/ictal/internal/journal"
)

// Under systemd, with standard error connected to the journal, a record
// is one line with its syslog priority first and no time of its own.
func ExampleNewJournalHandler() {
	log := slog.New(journal.NewJournalHandler(os.Stdout, "text", nil))
	log.Info("running", slog.String("source", "openbci"))
	log.Error("ictald stopped", slog.String("err", "pipeline: reading the source: EOF"))
	// Output:
	// <6>level=INFO msg=running source=openbci
	// <3>level=ERROR msg="ictald stopped" err="pipeline: reading the source: EOF"
}
