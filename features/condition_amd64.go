//go:build !purego

package features

// filter runs the chain over the frame x, in the AVX loop where the
// processor has one.
func (k *conditioner) filter(x []float64) {
	if useAVX {
		k.filterSIMD(x)
		return
	}
	k.filterGo(x)
}

// filterSIMD runs the chain over the frame x four channels at a time, in
// place when x's capacity covers the padding lanes (whose values and
// state are never read into a channel's), else on a copy in k.xp.
func (k *conditioner) filterSIMD(x []float64) {
	if len(k.stages) == 0 {
		return
	}
	if cap(x) >= k.stride {
		biquadsAVX(&x[:k.stride][0], &k.s1[0], &k.s2[0], &k.coef[0], k.stride/simdLanes, len(k.stages), k.stride)
		return
	}
	xp := k.xp
	copy(xp, x)
	biquadsAVX(&xp[0], &k.s1[0], &k.s2[0], &k.coef[0], k.stride/simdLanes, len(k.stages), k.stride)
	copy(x, xp[:len(x)])
}

// biquadsAVX filters groups × 4 channels of one frame x in place through
// sections second-order sections: for each group of four channels, for
// each section i in order, with the section's state at s1 and s2 + i ×
// stride (float64s) and its coefficients at coef + 16i (b0, b1, a1, a2,
// each four times),
//
//	p = b0·v;  y = p + s1;  s1 = (b1·v − a1·y) + s2;  s2 = p − a2·y;  v = y
//
// in packed double precision, every product and sum rounded on its own
// (no fused multiply-add): per lane exactly the operations, in the same
// order, of filterGo, so the same bits. sections ≥ 1, groups ≥ 1.
//
//go:noescape
func biquadsAVX(x, s1, s2, coef *float64, groups, sections, stride int)
