package elem

// smallN is the length up to which the slice calls run the Go loop inline:
// below it a call into assembly costs more than it saves.
const smallN = 8

// Add sets dst[i] = a[i] + b[i].
func Add[T Float](dst, a, b []T) { vector(OpAdd, dst, a, b) }

// Sub sets dst[i] = a[i] - b[i].
func Sub[T Float](dst, a, b []T) { vector(OpSub, dst, a, b) }

// Mul sets dst[i] = a[i] * b[i].
func Mul[T Float](dst, a, b []T) { vector(OpMul, dst, a, b) }

// Div sets dst[i] = a[i] / b[i].
func Div[T Float](dst, a, b []T) { vector(OpDiv, dst, a, b) }

// Min sets dst[i] = min(a[i], b[i]), with Go's builtin min.
func Min[T Float](dst, a, b []T) { vector(OpMin, dst, a, b) }

// Max sets dst[i] = max(a[i], b[i]), with Go's builtin max.
func Max[T Float](dst, a, b []T) { vector(OpMax, dst, a, b) }

// AddScalar sets dst[i] = a[i] + s.
func AddScalar[T Float](dst, a []T, s T) { scalarRight(OpAdd, dst, a, s) }

// SubScalar sets dst[i] = a[i] - s.
func SubScalar[T Float](dst, a []T, s T) { scalarRight(OpSub, dst, a, s) }

// MulScalar sets dst[i] = a[i] * s.
func MulScalar[T Float](dst, a []T, s T) { scalarRight(OpMul, dst, a, s) }

// DivScalar sets dst[i] = a[i] / s. It divides; it does not multiply by 1/s.
func DivScalar[T Float](dst, a []T, s T) { scalarRight(OpDiv, dst, a, s) }

// MinScalar sets dst[i] = min(a[i], s).
func MinScalar[T Float](dst, a []T, s T) { scalarRight(OpMin, dst, a, s) }

// MaxScalar sets dst[i] = max(a[i], s).
func MaxScalar[T Float](dst, a []T, s T) { scalarRight(OpMax, dst, a, s) }

// ScalarSub sets dst[i] = s - a[i].
func ScalarSub[T Float](dst []T, s T, a []T) { scalarLeft(OpSub, dst, s, a) }

// ScalarDiv sets dst[i] = s / a[i].
func ScalarDiv[T Float](dst []T, s T, a []T) { scalarLeft(OpDiv, dst, s, a) }

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
	n := len(dst)
	if len(a) != n || len(b) != n {
		panicLengths(op, n, len(a), len(b))
	}
	if overlapsPartly(dst, a) || overlapsPartly(dst, b) {
		panicOverlap(op)
	}
	if n <= smallN {
		vvRow(op, dst, a, b)
		return
	}
	run(kindVV, op, 1, n, dst, 0, a, 0, b, 0)
}

func scalarRight[T Float](op Op, dst, a []T, s T) {
	n := len(dst)
	if len(a) != n {
		panicLengths(op, n, len(a), -1)
	}
	if overlapsPartly(dst, a) {
		panicOverlap(op)
	}
	if n <= smallN {
		vsRow(op, dst, a, s)
		return
	}
	run(kindVS, op, 1, n, dst, 0, a, 0, []T{s}, 0)
}

func scalarLeft[T Float](op Op, dst []T, s T, a []T) {
	n := len(dst)
	if len(a) != n {
		panicLengths(op, n, len(a), -1)
	}
	if overlapsPartly(dst, a) {
		panicOverlap(op)
	}
	if n <= smallN {
		svRow(op, dst, &s, a)
		return
	}
	run(kindSV, op, 1, n, dst, 0, []T{s}, 0, a, 0)
}
