package elem

// The portable kernels. They are the reference: every other implementation
// must give exactly their bits. Each loop is the obvious scalar expression,
// with one exception of form: the per-row value of sv is read through a
// pointer inside the loop, because the compiler commutes s + y[j] for a value
// held in a register and the result would then carry y's NaN payload instead
// of the first operand's.

// kind is the operand shape of a kernel call, as in asm.Kinds.
type kind uint8

const (
	kindVV kind = iota // a and b are rows of n values
	kindVS             // b is one value per row
	kindSV             // a is one value per row
)

// runGeneric computes the m x n block of kind k; see Apply2D. The slices
// hold every element the block reads or writes.
func runGeneric[T Float](k kind, op Op, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int) {
	for r := 0; r < m; r++ {
		d := dst[r*ldd:][:n]
		switch k {
		case kindVV:
			vvRow(op, d, a[r*lda:][:n], b[r*ldb:][:n])
		case kindVS:
			vsRow(op, d, a[r*lda:][:n], b[r*ldb])
		case kindSV:
			svRow(op, d, &a[r*lda], b[r*ldb:][:n])
		}
	}
}

func vvRow[T Float](op Op, d, x, y []T) {
	x, y = x[:len(d)], y[:len(d)]
	switch op {
	case OpAdd:
		for j := range d {
			d[j] = x[j] + y[j]
		}
	case OpSub:
		for j := range d {
			d[j] = x[j] - y[j]
		}
	case OpMul:
		for j := range d {
			d[j] = x[j] * y[j]
		}
	case OpDiv:
		for j := range d {
			d[j] = x[j] / y[j]
		}
	case OpMin:
		for j := range d {
			d[j] = min(x[j], y[j])
		}
	case OpMax:
		for j := range d {
			d[j] = max(x[j], y[j])
		}
	}
}

func vsRow[T Float](op Op, d, x []T, s T) {
	x = x[:len(d)]
	switch op {
	case OpAdd:
		for j := range d {
			d[j] = x[j] + s
		}
	case OpSub:
		for j := range d {
			d[j] = x[j] - s
		}
	case OpMul:
		for j := range d {
			d[j] = x[j] * s
		}
	case OpDiv:
		for j := range d {
			d[j] = x[j] / s
		}
	case OpMin:
		for j := range d {
			d[j] = min(x[j], s)
		}
	case OpMax:
		for j := range d {
			d[j] = max(x[j], s)
		}
	}
}

func svRow[T Float](op Op, d []T, s *T, y []T) {
	y = y[:len(d)]
	switch op {
	case OpAdd:
		for j := range d {
			d[j] = *s + y[j]
		}
	case OpSub:
		for j := range d {
			d[j] = *s - y[j]
		}
	case OpMul:
		for j := range d {
			d[j] = *s * y[j]
		}
	case OpDiv:
		for j := range d {
			d[j] = *s / y[j]
		}
	case OpMin:
		for j := range d {
			d[j] = min(*s, y[j])
		}
	case OpMax:
		for j := range d {
			d[j] = max(*s, y[j])
		}
	}
}
