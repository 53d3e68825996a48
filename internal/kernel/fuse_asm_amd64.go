//go:build !purego

package kernel

// fuseAsm says that this build has fused kernels.
const fuseAsm = true

// fuseVector is the vector bytes of impl's fused kernels, or 0 for none.
func fuseVector(impl Impl) int {
	switch impl {
	case AVX2:
		return 32
	case AVX512:
		return 64
	}
	return 0
}

// fuseRun calls the fused kernel of impl and element type ti.
func fuseRun(impl Impl, ti int, prog []uint64, slots []uintptr, rows, groups, chunk, tail int) {
	p, s := &prog[0], &slots[0]
	n, ns := len(prog), len(slots)/FuseSlotWords
	switch {
	case impl == AVX2 && ti == 0:
		fuseF32AVX2(p, n, s, ns, rows, groups, chunk, tail)
	case impl == AVX2:
		fuseF64AVX2(p, n, s, ns, rows, groups, chunk, tail)
	case ti == 0:
		fuseF32AVX512(p, n, s, ns, rows, groups, chunk, tail)
	default:
		fuseF64AVX512(p, n, s, ns, rows, groups, chunk, tail)
	}
}
