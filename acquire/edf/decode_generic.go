//go:build !amd64 || purego

package edf

// decode16 converts the 16-bit samples in b into dst[0], dst[stride] …
// (decode_amd64.go has the vector loop; elsewhere the Go loop).
func decode16(dst []float64, stride int, b []byte, c *conversion) { decode16Go(dst, stride, b, c) }

// decode24 is decode16 for BDF's 24-bit samples.
func decode24(dst []float64, stride int, b []byte, c *conversion) { decode24Go(dst, stride, b, c) }
