// Package openbci reads EEG from an OpenBCI Cyton board (8 channels, or 16
// with the Daisy module) through its USB radio dongle, a serial port at
// 115200 baud, 8-N-1.
//
// The package has two layers. Decoder is pure: it turns bytes into
// acquire.Frames and does no I/O, so it is fuzzed and benchmarked alone.
// Source implements acquire.Source on a serial port (github.com/tarm/serial
// by default, behind the Opener func so tests can run the real serial code
// on a pseudo-terminal), with reconnection and back-off.
//
// # Packet
//
// The board streams 33-byte packets (Cyton Data Format, firmware v2.0.0
// and later):
//
//	byte  0      0xA0 header
//	byte  1      sample counter, 0–255, wrapping
//	bytes 2–25   8 channels × 24-bit two's complement, most significant byte first
//	bytes 26–31  6 aux bytes, read according to the footer
//	byte  32     footer 0xC0–0xC6
//
// Footers: 0xC0 accelerometer X, Y, Z as 16-bit big-endian signed counts
// (zero when there is no new reading; 0.002/2^4 g per count); 0xC1 raw aux;
// 0xC2 user defined; 0xC3/0xC4 time-stamped with accelerometer: aux byte 0
// is an ASCII code 'X','x','Y','y','Z','z' naming the high or low byte of
// one axis, aux byte 1 is that byte, aux bytes 2–5 the board time in ms
// (uint32, big-endian); 0xC5/0xC6 time-stamped with raw aux: aux bytes 0–1
// raw, 2–5 board time. 0xC3 and 0xC5 mark the first packet after the '<'
// time-sync command. Packet decodes what is defined (Accel, AccelPart,
// Stamp) and always keeps the six raw bytes.
//
// # Framing
//
// 0xA0 also occurs inside channel data, so a candidate packet is a header
// with a valid footer 32 bytes later. When the footer does not match, the
// decoder drops one byte and scans from the next 0xA0 within the bytes
// already seen, so a valid packet right after garbage is never skipped.
// There is no checksum, so garbage holding 0xA0 and, 32 bytes later, a
// byte 0xC0–0xC6 would look framed, overlapping the real packet that
// follows it. A candidate is therefore accepted at once only when its
// counter follows the last packet's; otherwise (at start, after a loss) it
// is accepted when the next byte is the next packet's header, one byte of
// delay. A real packet is dropped only when it both follows a loss and is
// followed by garbage; the loss is then counted, never hidden. Footers
// 0xC7–0xCF, reserved by the documentation, are treated as not-a-packet.
//
// # Lost packets
//
// The counter detects losses: when it advances by more than one, the next
// frame carries acquire.FlagGap and its Seq advances by the number of
// frames lost, so Seq·(1/rate) stays the true sample time. Losses of 256
// packets or more alias modulo 256; a counter that repeats counts as 255
// lost. After the serial link is reopened the counter restarts, so the
// source estimates the loss from the wall clock instead.
//
// # Scaling
//
// Each count is 4.5 V / gain / (2^23 − 1) (×1e6 for µV); the gain is per
// channel, one of 1, 2, 4, 6, 8, 12, 24 (24 after a reset: 0.02235 µV per
// count). A count at +(2^23−1) or at or below −(2^23−1) is the converter's
// limit: its bit is set in Frame.Saturated and the frame carries
// acquire.FlagSaturated. The Cyton reports no lead-off state in its
// packets, so LeadOff is always zero.
//
// # Daisy
//
// With the Daisy module both ADS1299 sample at 250 Hz but the radio still
// carries 250 packets per second, so the board alternates: packets with an
// odd counter carry the board's channels 1–8, packets with an even counter
// the Daisy's channels 9–16, each the average of the chip's last two
// samples; the very first packet (counter 0) is invalid (Cyton Data Format,
// "16 Channel Data with Daisy Module"). Like the OpenBCI software, the
// decoder emits one 16-channel frame per pair — an odd counter n followed
// by the even counter n+1 (255 pairs with 0) — so frames come at 125 Hz
// and Seq counts pairs. A half whose partner is lost (a board packet not
// followed by the next even counter, a daisy packet not preceded by the
// previous odd one) is dropped, never combined with a stale half or held
// over: the pair is lost, counted in Stats.Orphans, and the next frame
// carries FlagGap with Seq advanced by the pairs lost.
//
// # Commands
//
// Open sends 's' (stop streaming), then with Opts.Reset 'v' (soft reset)
// and waits for the banner ending in "$$$"; then 'C' (16 channels; the
// reply "no daisy to attach!8$$$" fails with ErrNoDaisy) or 'c' (8
// channels; no reply without a Daisy), then 'b' (start streaming). Close
// sends 's'. The source does not program gains: Opts.Gains must say how the
// board is configured.
//
// # Timing and reconnection
//
// Frames are stamped Seq/rate (250 Hz, or 125 Hz with Daisy) from Open, so
// Time is exact and monotonic. If a read fails (a USB adapter unplugged
// hangs the terminal up) or no byte arrives for Opts.StallTimeout, the
// source closes the port and reopens it with exponential back-off
// (Opts.Backoff), until it succeeds, Close is called or the context passed
// to Open is done. The first frame afterwards carries FlagGap; its Seq
// advances by (time since the last frame) × rate.
//
// # Serial port
//
// OpenSerial uses github.com/tarm/serial, which sets the terminal with the
// TCSETS ioctl: raw (no echo, no line editing, no CR/LF translation),
// 8-N-1, 115200 baud, VMIN 0 and VTIME 1. The same code works on the slave
// of a pseudo-terminal (the baud rate is stored, not used), which is how
// the tests run it. tarm/serial leaves the descriptor in blocking mode, so
// closing it does not interrupt a read; the 100 ms VTIME bounds every read
// instead, which is how ReadFrame notices Close, a cancelled context or a
// stall. A timed-out read returns no bytes, as does a read on a hung-up
// terminal (an unplugged adapter, a closed pty master) — but the latter
// returns at once, so a read that returns nothing in under 50 ms counts as
// a hang-up (ErrHangup). Before configuring the board the source reads and
// discards until the line is quiet for 100 ms, rather than flushing the
// terminal, which would also discard the 's' not yet sent.
//
// # Recordings
//
// File reads what OpenBCI boards leave on disk (OpenFile recognises the
// format by content):
//
//   - the OpenBCI GUI's "OpenBCI Raw EXG Data" text (v5, v6; Cyton 8 and
//     Daisy 16 channels): '%' lines give the channel count ("%Number of
//     channels = 8"), the rate ("%Sample Rate = 250 Hz") and the board
//     ("%Board = OpenBCI_GUI$BoardCytonSerial"); a line names the columns
//     ("Sample Index, EXG Channel 0, …, Accel Channel 0, …, Timestamp,
//     Marker Channel, Timestamp (Formatted)"), and the columns are found by
//     those names; EXG values are µV as written, the timestamp is Unix
//     milliseconds;
//   - BrainFlow's DataFilter.write_file CSV: no header, a row per sample
//     with the rows of get_board_data as columns (tab-separated); the
//     board is recognised by the column count of its descriptor in
//     BrainFlow's src/board_controller/brainflow_boards.cpp (Cyton 24
//     columns, EEG 1–8, timestamp 22 in Unix seconds, marker 23; Cyton
//     Daisy 32, EEG 1–16, timestamp 30, marker 31, 125 Hz; Ganglion 15).
//
// The Cyton's packet counter (the GUI's Sample Index, BrainFlow's package
// column) runs 0–255 and wraps; a skipped value is a dropped packet, so
// the next frame has FlagGap and Seq jumps, as with the serial stream.
// The counters of Daisy and Ganglion files are not checked: their
// stepping differs between GUI versions. Markers become zero-length
// intervals. A final row cut short (the recorder was killed mid-write)
// ends the recording and File.Truncated says so; any other malformed row
// is an error naming the file, line and column, and OpenFile checks every
// row before the first frame is served.
//
// # References
//
//   - OpenBCI, "Cyton Data Format", docs.openbci.com/Cyton/CytonDataFormat
//     (packet layout, footer table, scale factors, Daisy interleaving).
//   - OpenBCI, "Cyton Board SDK", docs.openbci.com/Cyton/CytonSDK
//     (commands b s v c C, replies ending in "$$$").
//   - OpenBCI GUI, "OpenBCI Raw EXG Data" files as written by its
//     DataWriter (v5, v6), e.g. OpenBCI_GUI/data/EEG_Sample_Data.
//   - BrainFlow, "Data Format Description" and the board descriptors in
//     src/board_controller/brainflow_boards.cpp.
//   - Texas Instruments, ADS1299 datasheet (SBAS499), data format: 24-bit
//     two's complement, full scale ±VREF/gain with VREF = 4.5 V.
package openbci
