package edf

// conversion takes a digital sample d to its physical value times scale:
//
//	((d − dmin)·gain + pmin)·scale
//
// with both products rounded on their own, so that no platform fuses a
// multiply-add; a scale of 1 changes no bit.
type conversion struct {
	dmin, gain, pmin, scale float64
}

// decode16Go converts the 16-bit little-endian samples in b into dst[0],
// dst[stride], dst[2·stride] …; dst must hold them (stride ≥ 1). It is
// the reference for the vector loop of decode_amd64.s and runs wherever
// that one does not.
func decode16Go(dst []float64, stride int, b []byte, c *conversion) {
	dmin, gain, pmin, scale := c.dmin, c.gain, c.pmin, c.scale
	n, j := len(b)/2, 0
	for k := 0; k < n; k++ {
		x := b[2*k : 2*k+2 : 2*k+2] // one bounds check
		d := int16(uint16(x[0]) | uint16(x[1])<<8)
		dst[j] = (float64((float64(d)-dmin)*gain) + pmin) * scale
		j += stride
	}
}

// decode24Go is decode16Go for BDF's 24-bit little-endian samples.
func decode24Go(dst []float64, stride int, b []byte, c *conversion) {
	dmin, gain, pmin, scale := c.dmin, c.gain, c.pmin, c.scale
	n, j := len(b)/3, 0
	for k := 0; k < n; k++ {
		x := b[3*k : 3*k+3 : 3*k+3] // one bounds check
		d := int32(uint32(x[0])<<8|uint32(x[1])<<16|uint32(x[2])<<24) >> 8
		dst[j] = (float64((float64(d)-dmin)*gain) + pmin) * scale
		j += stride
	}
}
