//go:build !purego

package elem

import "golang.org/x/sys/cpu"

// availableLevels lists what this CPU can run: exactly the features in the
// kernels' "Requires:" lines (x/sys/cpu also checks that the OS saves the
// registers).
func availableLevels() []level {
	levels := []level{levelGeneric}
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 {
		levels = append(levels, levelAVX2)
	}
	if cpu.X86.HasAVX && cpu.X86.HasAVX512F {
		levels = append(levels, levelAVX512)
	}
	return levels
}

// defaultLevel prefers AVX2. The AVX-512 kernels are generated and tested on
// every machine that has AVX-512, but none of the machines they were
// developed on had it, so no benchmark has shown them at least matching AVX2;
// until one does they run only when asked for (ELEM_IMPL=avx512).
func defaultLevel() level {
	if hasLevel(levelAVX2) {
		return levelAVX2
	}
	return levelGeneric
}

// run computes the m x n block of kind k with the implementation in use.
// The caller has validated op, the shapes and the extents.
func run[T Float](k kind, op Op, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int) {
	l := level(current.Load())
	if l == levelGeneric {
		runGeneric(k, op, m, n, dst, ldd, a, lda, b, ldb)
		return
	}
	o := int(op)
	if is32[T]() {
		d, x, y := ptr32(dst), ptr32(a), ptr32(b)
		switch {
		case l == levelAVX2 && k == kindVV:
			vv32AVX2(o, m, n, d, ldd, x, lda, y, ldb)
		case l == levelAVX2 && k == kindVS:
			vs32AVX2(o, m, n, d, ldd, x, lda, y, ldb)
		case l == levelAVX2:
			sv32AVX2(o, m, n, d, ldd, x, lda, y, ldb)
		case k == kindVV:
			vv32AVX512(o, m, n, d, ldd, x, lda, y, ldb)
		case k == kindVS:
			vs32AVX512(o, m, n, d, ldd, x, lda, y, ldb)
		default:
			sv32AVX512(o, m, n, d, ldd, x, lda, y, ldb)
		}
		return
	}
	d, x, y := ptr64(dst), ptr64(a), ptr64(b)
	switch {
	case l == levelAVX2 && k == kindVV:
		vv64AVX2(o, m, n, d, ldd, x, lda, y, ldb)
	case l == levelAVX2 && k == kindVS:
		vs64AVX2(o, m, n, d, ldd, x, lda, y, ldb)
	case l == levelAVX2:
		sv64AVX2(o, m, n, d, ldd, x, lda, y, ldb)
	case k == kindVV:
		vv64AVX512(o, m, n, d, ldd, x, lda, y, ldb)
	case k == kindVS:
		vs64AVX512(o, m, n, d, ldd, x, lda, y, ldb)
	default:
		sv64AVX512(o, m, n, d, ldd, x, lda, y, ldb)
	}
}
