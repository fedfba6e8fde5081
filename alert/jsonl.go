package alert

import (
	"bufio"
	"io"
	"sync"
)

// JSONLines is a Sink that writes one JSON object per line: the MQTT
// contract's payloads with a leading "type" field ("alert", "end",
// "status", "score"), and for status a "reason". Scores are written only
// when Scores is set. Writes are buffered and flushed after every alert,
// end and status line (scores are flushed with them or on Close). It
// allocates nothing per message.
type JSONLines struct {
	mu     sync.Mutex
	w      *bufio.Writer
	c      io.Closer // closed by Close when non-nil
	buf    []byte
	Scores bool
}

// NewJSONLines writes to w; if w is an io.Closer other than os.Stdout the
// caller decides: pass closer to have Close close it.
func NewJSONLines(w io.Writer, closer io.Closer, scores bool) *JSONLines {
	return &JSONLines{w: bufio.NewWriterSize(w, 64<<10), c: closer, buf: make([]byte, 0, 1024), Scores: scores}
}

func (j *JSONLines) line(kind string, body []byte, flush bool) error {
	// body starts with '{'
	j.buf = append(j.buf[:0], `{"type":"`...)
	j.buf = append(j.buf, kind...)
	j.buf = append(j.buf, `",`...)
	j.buf = append(j.buf, body[1:]...)
	j.buf = append(j.buf, '\n')
	if _, err := j.w.Write(j.buf); err != nil {
		return err
	}
	if flush {
		return j.w.Flush()
	}
	return nil
}

// Alert implements Sink.
func (j *JSONLines) Alert(e *Event) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.line("alert", AppendAlert(make([]byte, 0, 256), e), true)
}

// EventEnd implements Sink.
func (j *JSONLines) EventEnd(e *Event) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.line("end", AppendEventEnd(make([]byte, 0, 256), e), true)
}

// Status implements Sink.
func (j *JSONLines) Status(s Status) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	b := AppendStatus(make([]byte, 0, 128), s)
	b = b[:len(b)-1]
	b = append(b, `,"reason":`...)
	b = AppendJSONString(b, s.Reason)
	b = append(b, '}')
	return j.line("status", b, true)
}

// Score implements Sink.
func (j *JSONLines) Score(s Score) error {
	if !j.Scores {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	var tmp [128]byte
	return j.line("score", AppendScore(tmp[:0], s), false)
}

// Close flushes and closes the underlying writer if a closer was given.
func (j *JSONLines) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	err := j.w.Flush()
	if j.c != nil {
		if cerr := j.c.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
