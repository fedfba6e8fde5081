package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// Build is what a binary knows of how it was built, from the build
// information the go command embeds (runtime/debug.ReadBuildInfo).
type Build struct {
	// Version is the main module's version: a tag (v1.2.3), a
	// pseudo-version (v0.0.0-20261126062510-0c642f8a1b2c+dirty) when built
	// from a repository, or "(devel)" when the go command could not tell.
	Version string
	// Revision, Time and Modified are the VCS revision the binary was
	// built from, its commit time and whether the tree had uncommitted
	// changes; empty and false when built outside a repository (or with
	// -buildvcs=false).
	Revision, Time string
	Modified       bool
	// Go is the toolchain's version.
	Go string
}

// ReadBuild returns the running binary's build information; override,
// when neither empty nor "dev", replaces its version (a -ldflags "-X
// main.version=…" of the release scripts).
func ReadBuild(override string) Build {
	bi, ok := debug.ReadBuildInfo()
	return buildOf(bi, ok, override)
}

func buildOf(bi *debug.BuildInfo, ok bool, override string) Build {
	b := Build{Version: "(devel)", Go: runtime.Version()}
	if ok && bi != nil {
		if bi.Main.Version != "" {
			b.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			b.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Revision = s.Value
			case "vcs.time":
				b.Time = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if override != "" && override != "dev" {
		b.Version = override
	}
	return b
}

// String is the version and revision in one line: "v1.2.3 (revision
// 0c642f8a…, 2026-11-26T06:25:10Z, modified)".
func (b Build) String() string {
	var extra []string
	if b.Revision != "" {
		extra = append(extra, "revision "+b.Revision)
	}
	if b.Time != "" {
		extra = append(extra, b.Time)
	}
	if b.Modified {
		extra = append(extra, "modified")
	}
	if len(extra) == 0 {
		return b.Version + " (no VCS revision recorded)"
	}
	return b.Version + " (" + strings.Join(extra, ", ") + ")"
}

// VersionCommand is the "version" command of prog: it prints the build
// (Build.String), the toolchain and the platform, "ictal v1.2.3 (revision
// …) go1.26 linux/arm64".
func VersionCommand(prog string, b Build) Command {
	return Command{Name: "version", Summary: "print the version and VCS revision the binary was built from",
		Run: func(args []string, stdout, _ io.Writer) error {
			if len(args) > 0 {
				return fmt.Errorf("unexpected argument %q", args[0])
			}
			_, err := fmt.Fprintf(stdout, "%s %s %s %s/%s\n", prog, b, b.Go, runtime.GOOS, runtime.GOARCH)
			return err
		}}
}
