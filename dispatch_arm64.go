//go:build !purego

package elem

import "golang.org/x/sys/cpu"

// availableLevels lists what this CPU can run: NEON needs ASIMD, the
// Advanced SIMD instructions of every kernel in kernel_arm64.s.
func availableLevels() []level {
	levels := []level{levelGeneric}
	if cpu.ARM64.HasASIMD {
		levels = append(levels, levelNEON)
	}
	return levels
}

// defaultLevel prefers NEON, which every arm64 CPU that runs Go has.
func defaultLevel() level {
	if hasLevel(levelNEON) {
		return levelNEON
	}
	return levelGeneric
}

// run computes the m x n block of kind k with the implementation in use.
// The caller has validated op, the shapes and the extents.
func run[T Float](k kind, op Op, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int) {
	if level(current.Load()) == levelGeneric {
		runGeneric(k, op, m, n, dst, ldd, a, lda, b, ldb)
		return
	}
	o := int(op)
	if is32[T]() {
		d, x, y := ptr32(dst), ptr32(a), ptr32(b)
		switch k {
		case kindVV:
			vv32NEON(o, m, n, d, ldd, x, lda, y, ldb)
		case kindVS:
			vs32NEON(o, m, n, d, ldd, x, lda, y, ldb)
		default:
			sv32NEON(o, m, n, d, ldd, x, lda, y, ldb)
		}
		return
	}
	d, x, y := ptr64(dst), ptr64(a), ptr64(b)
	switch k {
	case kindVV:
		vv64NEON(o, m, n, d, ldd, x, lda, y, ldb)
	case kindVS:
		vs64NEON(o, m, n, d, ldd, x, lda, y, ldb)
	default:
		sv64NEON(o, m, n, d, ldd, x, lda, y, ldb)
	}
}

// hasStreaming reports whether the kernels here have streaming-store forms:
// the NEON kernels do not.
const hasStreaming = false
