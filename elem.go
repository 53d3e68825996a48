package elem

// smallN is the length up to which the slice calls run the Go loop inline:
// below it a call into assembly costs more than it saves. The named calls
// (Add, AddScalar, ScalarSub, ...) are in ops_generated.go.
const smallN = 8

// Apply sets dst[i] = a[i] op b[i].
func Apply[T Float](op Op, dst, a, b []T) {
	if !op.Valid() {
		panic(badOp(op))
	}
	vector(op, dst, a, b)
}

// ApplyScalar sets dst[i] = a[i] op s.
func ApplyScalar[T Float](op Op, dst, a []T, s T) {
	if !op.Valid() {
		panic(badOp(op))
	}
	scalarRight(op, dst, a, s)
}

// ScalarApply sets dst[i] = s op a[i]. s stays the first operand: s + a[i]
// and a[i] + s differ when both are NaN, and so can min and max on some CPUs.
func ScalarApply[T Float](op Op, dst []T, s T, a []T) {
	if !op.Valid() {
		panic(badOp(op))
	}
	scalarLeft(op, dst, s, a)
}

func vector[T Float](op Op, dst, a, b []T) {
	if !fits(dst, a) || !fits(dst, b) {
		checkVV(op, dst, a, b)
	}
	n := len(dst)
	if n <= smallN {
		vvRow(op, dst, a, b)
		return
	}
	runKernel(kindVV, op, 1, n, dst, 0, a, 0, b, 0, streaming[T](kindVV, 1, n, 0, 0))
}

func scalarRight[T Float](op Op, dst, a []T, s T) {
	if !fits(dst, a) {
		checkV(op, dst, a)
	}
	n := len(dst)
	if n <= smallN {
		vsRow(op, dst, a, s)
		return
	}
	runKernel(kindVS, op, 1, n, dst, 0, a, 0, []T{s}, 0, streaming[T](kindVS, 1, n, 0, 0))
}

func scalarLeft[T Float](op Op, dst []T, s T, a []T) {
	if !fits(dst, a) {
		checkV(op, dst, a)
	}
	n := len(dst)
	if n <= smallN {
		svRow(op, dst, &s, a)
		return
	}
	runKernel(kindSV, op, 1, n, dst, 0, []T{s}, 0, a, 0, streaming[T](kindSV, 1, n, 0, 0))
}
