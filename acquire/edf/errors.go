package edf

import "errors"

// Sentinel errors. Errors returned by this package wrap one of them (with
// %w) when a caller may want to branch on the kind of failure; the message
// around it names the field, signal, record and byte offset concerned.
var (
	// ErrHeader marks a malformed or inconsistent header field.
	ErrHeader = errors.New("edf: bad header")
	// ErrTruncated marks a file that holds fewer bytes than its header
	// declares. The complete records before the cut remain readable.
	ErrTruncated = errors.New("edf: data truncated")
	// ErrUnknownRecords marks a header whose number of data records is -1
	// (unknown) when the file size is not available to derive it.
	ErrUnknownRecords = errors.New("edf: number of data records unknown")
	// ErrTAL marks a malformed time-stamped annotation list.
	ErrTAL = errors.New("edf: bad annotation")
	// ErrNoData marks a file without the data records or data signals an
	// operation needs.
	ErrNoData = errors.New("edf: no data")
	// ErrSeek marks random access attempted on a sequential reader.
	ErrSeek = errors.New("edf: reader cannot seek")
)
