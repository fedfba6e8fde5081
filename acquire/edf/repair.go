package edf

import (
	"fmt"
	"io"
	"strconv"
)

// RepairFile is a file Repair can fix in place (an *os.File).
type RepairFile interface {
	io.ReaderAt
	io.WriterAt
	Truncate(size int64) error
}

// Repaired says what Repair found and did.
type Repaired struct {
	// Declared is the record count the header held (-1: unknown).
	Declared int64
	// Records is the number of complete data records, now in the header.
	Records int64
	// Dropped is the number of bytes of an incomplete last record cut
	// off.
	Dropped int64
}

// Changed reports whether Repair changed the file.
func (r Repaired) Changed() bool { return r.Declared != r.Records || r.Dropped != 0 }

// Repair makes a file whose writing was cut off (the writer killed before
// Close, the header's count -1 or behind the data) consistent: it cuts an
// incomplete last data record and writes the number of complete records
// into the header. A consistent file is left as it is. size is the file's
// size. Errors wrap ErrHeader when the header cannot be read.
func Repair(f RepairFile, size int64) (Repaired, error) {
	h, err := ParseHeader(io.NewSectionReader(f, 0, size))
	if err != nil {
		return Repaired{}, err
	}
	rb := int64(h.RecordBytes())
	if rb == 0 {
		return Repaired{}, fmt.Errorf("%w: data records of 0 bytes", ErrHeader)
	}
	data := size - int64(h.HeaderBytes)
	r := Repaired{Declared: h.Records, Records: data / rb, Dropped: data % rb}
	if r.Records > maxRecords {
		return r, fmt.Errorf("%w: %d data records do not fit the header's 8 characters", ErrHeader, r.Records)
	}
	if r.Dropped != 0 {
		if err := f.Truncate(size - r.Dropped); err != nil {
			return r, fmt.Errorf("edf: cutting an incomplete record of %d bytes: %w", r.Dropped, err)
		}
	}
	if r.Declared != r.Records {
		var nr [8]byte
		copy(nr[:], pad(strconv.FormatInt(r.Records, 10), 8))
		if _, err := f.WriteAt(nr[:], 236); err != nil {
			return r, fmt.Errorf("edf: writing record count %d: %w", r.Records, err)
		}
	}
	return r, nil
}
