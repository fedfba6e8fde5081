// Command ictald is ictal's seizure-detection daemon: it reads EEG from an
// amplifier or a recording, scores every window with an online
// cost-sensitive ensemble that keeps learning from clinicians' feedback,
// and publishes alerts.
//
//	ictald run -config /etc/ictald/ictald.toml   the daemon
//	ictald demo [-duration 5m] [-seed 1]         a simulated patient, end to end
//	ictald check -config FILE                    validate a configuration as run would, short of opening the amplifier
//	ictald config                                print the commented sample configuration
//	ictald version                               print the version and VCS revision
//
// run and check exit 78 (EX_CONFIG) when the configuration is refused, so
// that systemd does not restart into the same refusal
// (RestartPreventExitStatus=78 in systemd/ictald.service); 1 on other
// failures, which a restart may cure (an amplifier not plugged in yet).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/ictal/ictal/internal/cli"

	"github.com/ictal/ictal/internal/daemon"
	"github.com/ictal/ictal/systemd"
)

// version, when set at build time (-ldflags "-X main.version=v1.2.3", as
// cross/build does), replaces the module version of the build information.
var version = "dev"

// buildInfo is how this binary was built: `ictald version` prints it, the log
// and checkpoints record it.
var buildInfo = cli.ReadBuild(version)

func main() {
	setGCPercent(os.Getenv)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// gcPercent is ictald's garbage-collection target (GOGC) unless the
// environment sets one. Most of its heap lives as long as the daemon (the
// late-label buffer, the model, the feature state) and it allocates
// little after start (alerts, their evidence, status, checkpoints: 2 KB
// per second of EEG measured at 23 channels), so collecting when the heap has
// grown by half of what is live, rather than Go's default of all of it,
// keeps ictald inside DESIGN.md's 32 MB of resident memory at a cost of a
// collection about every half hour of EEG, of a few milliseconds (measured
// at 23 channels). README.md ("Memory") has the measurements.
const gcPercent = 50

// setGCPercent applies gcPercent unless getenv("GOGC") is set (the
// runtime has applied that one).
func setGCPercent(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// commands lists the subcommands in the order usage prints them; cmd/ictal
// dispatches the same way (internal/cli).
var commands = []cli.Command{
	{Name: "run", Summary: "-config FILE: run the daemon (SIGTERM/SIGINT stop it with a final checkpoint; SIGHUP reloads the decision rule and log level)",
		Run: func(args []string, _, stderr io.Writer) error { return cmdRun(args, stderr) }},
	{Name: "demo", Summary: "a simulated patient through the whole pipeline, alerts printed as they are raised", Run: cmdDemo},
	{Name: "check", Summary: "-config FILE: validate a configuration file with every check of run short of opening the amplifier (warnings on stderr)", Run: cmdCheck},
	{Name: "config", Summary: "print the commented sample configuration", Run: func(_ []string, stdout, _ io.Writer) error {
		_, err := fmt.Fprint(stdout, systemd.SampleConfig)
		return err
	}},
	cli.VersionCommand("ictald", buildInfo),
}

// exitConfig is the exit status of `ictald run` and `ictald check` when
// the configuration is refused (sysexits.h's EX_CONFIG). ictald.service
// has RestartPreventExitStatus=78: systemd does not restart a daemon
// that would refuse the same file again every RestartSec, for ever; the
// unit stays failed, with the reason in its status line and the journal.
const exitConfig = 78

// configError marks an error of the configuration (a file that does not
// load, or that Check refuses): run exits with exitConfig on it.
type configError struct{ error }

func (e configError) Unwrap() error { return e.error }

// run dispatches args to a subcommand and returns the exit code: cli.Run's,
// or exitConfig when the command failed on its configuration.
func run(args []string, stdout, stderr io.Writer) int {
	var failed error
	cmds := make([]cli.Command, len(commands))
	for i, c := range commands {
		cmds[i] = c
		cmds[i].Run = func(args []string, stdout, stderr io.Writer) error {
			failed = c.Run(args, stdout, stderr)
			return failed
		}
	}
	code := cli.Run("ictald", cmds, args, stdout, stderr)
	if code == 1 && errors.As(failed, new(configError)) {
		return exitConfig
	}
	return code
}

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "configuration file to validate")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *path == "" {
		return errors.New("-config is required")
	}
	cfg, err := daemon.LoadConfig(*path)
	if err != nil {
		return configError{err}
	}
	// Warnings (a password readable by others) go to stderr; the same
	// checks as run, which logs them.
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if err := cfg.Check(log); err != nil {
		return configError{fmt.Errorf("%s: %w", *path, err)}
	}
	fmt.Fprintf(stdout, "%s: ok\n", *path)
	return nil
}

func cmdRun(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "/etc/ictald/ictald.toml", "configuration file")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	cfg, err := daemon.LoadConfig(*path)
	if err != nil {
		// A file that does not load (or is missing): what systemd could
		// only restart into again. Exit with exitConfig, saying why.
		log := daemon.NewLoggerTo(stderr, "text", nil)
		log.Error("ictald: configuration rejected", slog.String("config", *path), slog.Any("err", err))
		newNotifier(log).configRejected(err)
		return configError{cli.Logged(err)}
	}
	level := new(slog.LevelVar)
	level.Set(daemon.ParseLevel(cfg.Log.Level))
	log := daemon.NewLoggerTo(stderr, cfg.Log.Format, level)
	log.Info("ictald starting", slog.String("version", buildInfo.String()), slog.String("config", *path))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	reload := make(chan *daemon.Config, 1)
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go reloadOnHangup(ctx, hup, *path, level, reload, log)
	sdn := newNotifier(log)
	go func() {
		<-ctx.Done()
		sdn.stopping()
	}()
	start := time.Now()
	err = daemon.Run(ctx, cfg, log, daemon.Options{
		Reload: reload, Ready: sdn.ready, Window: sdn.window, Program: "ictald " + buildInfo.String(),
	})
	uptime := slog.Duration("uptime", time.Since(start).Round(time.Second))
	if err != nil {
		// ERROR, so that `journalctl -p err -u ictald` finds it; logged
		// here, not printed again by cli.Run.
		log.Error("ictald stopped", uptime, slog.Any("err", err))
		if errors.Is(err, daemon.ErrConfig) { // Check refused it: exitConfig
			sdn.configRejected(err)
			return configError{cli.Logged(err)}
		}
		return cli.Logged(err)
	}
	log.Info("ictald stopped", uptime)
	return nil
}

func cmdDemo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o daemon.DemoOptions
	fs.DurationVar(&o.Duration, "duration", 5*time.Minute, "length of the monitored simulated recording")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the simulated patient")
	fs.Float64Var(&o.Speed, "speed", 0, "play the monitored recording at this multiple of real time (0: about 20 s in all)")
	fs.IntVar(&o.Channels, "channels", 8, "EEG channels")
	fs.IntVar(&o.Seizures, "seizures", 0, "seizures in the monitored recording (0: one per 2.5 min)")
	fs.StringVar(&o.MQTTListen, "mqtt-listen", "127.0.0.1:1883", "address of the embedded MQTT broker the alerts are published through (\"\": no MQTT)")
	fs.DurationVar(&o.Linger, "linger", 0, "keep the broker and the ward board up this long after the recording ends, to look around")
	fs.StringVar(&o.BoardListen, "board-listen", "127.0.0.1:8080", "address of the ward board (ictal board) on the embedded broker, with a one-time login printed (\"\": no board)")
	verbose := fs.Bool("v", false, "log the pipeline's progress to stderr")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	lvl := slog.LevelWarn
	if *verbose {
		lvl = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lvl}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	_, err := daemon.Demo(ctx, o, stdout, log)
	return err
}

// parseNoArgs is cli.ParseNoArgs.
var parseNoArgs = cli.ParseNoArgs

// reloadOnHangup re-reads the configuration on SIGHUP: the log level is
// set at once and the configuration is handed to daemon.Run, which
// resolves its decision rule as it did at start (the model's own rule
// where [decision] leaves the default) for the pipeline to apply at its
// next window (or when the event in progress ends). Other changes need a
// restart. A configuration that does not load is logged and the current
// one stays.
func reloadOnHangup(ctx context.Context, hup <-chan os.Signal, path string, level *slog.LevelVar, reload chan *daemon.Config, log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
		}
		nc, err := daemon.LoadConfig(path)
		if err != nil {
			log.Error("reload: configuration rejected, keeping the current one", slog.Any("err", err))
			continue
		}
		level.Set(daemon.ParseLevel(nc.Log.Level))
		select {
		case <-reload: // replace a configuration Run has not taken yet
		default:
		}
		reload <- nc
		log.Info("reload: log level set, decision rule handed to the pipeline; other changes need a restart")
	}
}
