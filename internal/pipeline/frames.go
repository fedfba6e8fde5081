package pipeline

import (
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
)

// FrameSink is a Sink that takes every frame as the source delivered it,
// before conditioning: the raw signal, for session recording
// (internal/record). The pipeline finds it by type assertion once, when it
// is built.
type FrameSink interface {
	// Begin is called once, when Run starts, with the source's
	// description and the wall-clock time of offset 0, from which every
	// Frame.Time and every event's offsets are measured.
	Begin(info acquire.Info, start time.Time) error
	// Frame is called for every frame read, in order, before the windows
	// it completes are scored. It must not keep f, and must not allocate
	// in steady state: it is on the hot path.
	Frame(f *acquire.Frame) error
}

// frameSinks returns the sinks that take frames.
func frameSinks(all []alert.Sink) []FrameSink {
	var fs []FrameSink
	for _, k := range all {
		if f, ok := k.(FrameSink); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// beginFrames tells the frame sinks where the recording starts.
func (p *Pipeline) beginFrames() {
	for _, f := range p.frames {
		p.sinks.check("begin", f.Begin(p.info, p.wall0))
	}
}

// recordFrame hands the frame just read to the frame sinks.
func (p *Pipeline) recordFrame() {
	for _, f := range p.frames {
		p.sinks.check("frame", f.Frame(p.frame))
	}
}
