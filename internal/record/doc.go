// Package record is ictald's session recording: the raw signal of every
// channel, at the source's rate, in EDF+ (16-bit) or BDF+ (24-bit, for
// the ADS1299 and the OpenBCI Cyton, so that no bit of the converter is
// lost), with EDF+ annotations telling what the daemon made of it. A
// Recorder is a pipeline.FrameSink (it takes every frame before
// conditioning) and an alert.Sink with every optional part (event ends,
// states, feedback acknowledgements); the pipeline's goroutine calls it.
//
// # Files
//
// Files are named
//
//	<site>_<bed>_<start>.edf   (or .bdf)   e.g. ward-7_bed-3_20261126T100000Z.edf
//
// with the wall-clock time (UTC) of their first sample; a second file
// started within the same second gets "-2", and so on. Characters other
// than letters, digits, '.' and '-' in the site and bed become '-'. A file
// holds Config.Rotate of signal (default 1 h): a new one starts at the
// first record boundary after the clock crosses a multiple of it (10:00,
// 11:00, …), so files start within a second of the hour. The first file
// of a run starts with the first frame. Times come from the frames
// (the source's time stamps from the pipeline's start), never from the
// machine's clock, so a replay at any speed records the same files.
//
// Data records last 1 s (the rate must be a whole number of samples per
// second). Each channel is "EEG <label>" in uV, its physical range
// ±Config.Range over the symmetric digital range (±32767, ±8388607): EDF
// ±3276.7 µV in steps of 0.1 µV; BDF ±187500 µV, an ADS1299's range at
// gain 24, where the digital values are the converter's counts (ictald
// sets ±4.5 V / gain for other gains). Values beyond the range are clipped;
// NaN is written as 0. Each record has 256 bytes of annotation room: 8
// channels at 250 Hz take (8·250·2 + 256) bytes a second, 15.3 MB an hour
// in EDF (22.5 MB in BDF).
//
// A gap in the source (frames lost) of up to MaxFill is filled with the
// last samples, so the file stays continuous (EDF+C), and annotated; a
// longer gap ends the file, and the next starts when the signal returns.
//
// # Annotations
//
// Every annotation's text is a Note:
//
//	kind [word] key=value … [reason=free text]
//
// Values hold no spaces; reason, last, may. Times in values are RFC 3339
// UTC with milliseconds. The kinds, where they sit and what they carry:
//
//	ictald-start program= site= bed= channels= rate=     the first frame recorded in a run
//	ictald-stop                                          the end of the last frame (clean stop)
//	alert [kind] id= onset= detected= score= channels=   from the alert's onset, lasting until its detection
//	                                                     (kind: motor or status-epilepticus; none for a seizure)
//	alert-end id= end= score=                            the end of the alert's event
//	state <state> [kind= channels=] [reason=]            a change of state: online, signal-lost, electrode-off, artifact
//	feedback alert= verdict= by=                         a clinician's verdict on an alert, when it arrived
//	feedback label=ictal|non-ictal from= to= by=         an interval a clinician labelled, over the interval
//	feedback-ack applied|refused [alert=] windows= [by=] [reason=]   what the daemon did with it
//	gap lost=0.120s                                      frames the source lost, filled with the last samples
//	resumed lost=42.000s                                 recording resumed after writing failed (a full disk)
//
// No annotation contains the word "seizure" (a clinician's "seizure" and
// "non-seizure" are written ictal and non-ictal): tools that take every
// annotation containing it as a seizure, as `ictal replay` and `ictal
// train` do by default, would otherwise read a rejected interval as one.
// ParseNote reads the texts back.
//
// An annotation goes into the next data record written, so it reaches the
// disk within a second; one that began before the file (an alert whose
// onset lies in the previous hour's file) is cut to the file's start and
// keeps its true times in its values.
//
// # Crashes, full disks and the quota
//
// Each record is one write, and with Config.HeaderCount "record" (the
// default) the header's record count is rewritten right after it: a
// daemon killed at any moment (kill -9) leaves a file whose header counts
// the records it holds, with at most its last second missing. Two writes
// cannot be one, so a kill in the microseconds between a record and its
// count leaves the count one behind (and a kill inside a write, part of a
// record after the counted ones). MNE reads such a file (it trusts the
// size, with a warning); EDFbrowser insists on an exact size and opens it
// as a stream (File → Open stream) or after its header editor's fix. With
// "close" the count stays -1 until the file is closed: MNE reads it,
// EDFbrowser only as a stream. Either way New, at the next start, repairs
// the files in the directory: it cuts an incomplete last record and writes
// the count of complete ones (edf.Repair), and says so in the log. The
// page cache is not synced: a power cut loses what the kernel had not yet
// written.
//
// A write that fails (a full disk, a directory that cannot be created)
// never stops detection, nor keeps the daemon from starting: the error is
// logged once, the file is repaired and closed, frames are dropped, and a
// new file is tried every Config.Retry of signal (10 s); when one starts,
// the log says how long was lost and the file begins with a "resumed"
// annotation. Annotations made meanwhile (up to 256) go into it.
//
// With Config.Quota, before a file starts the oldest recordings in the
// directory are deleted until the new file (at its full length) fits
// with the rest; each deletion is logged.
package record
