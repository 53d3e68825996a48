package broadcast

import (
	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/nditer"
)

// complexPiece is the values of a row the complex runs take at a time:
// rows of a strided or repeated operand are gathered into buffers of it
// on the stack.
const complexPiece = 256

// rowBuffers are a complex run's buffers for dst's, a's and b's pieces of
// a row, one set per run (cleared once, not per row).
type rowBuffers[C elem.Complex] struct{ d, a, b [complexPiece]C }

// runComplex is Run on complex values: Add, Sub, Mul or Div by elem's
// calls on each innermost row of the plan's nest, an operand's row taken
// as it is where it is contiguous, gathered where it repeats or strides.
func runComplex[C elem.Complex](p *Plan, op elem.Op, dst, a, b []C) error {
	if err := p.usable(true); err != nil {
		return err
	}
	if err := complexOp[C](op); err != nil {
		return err
	}
	if err := checkOperands(p, dst, a, b); err != nil {
		return err
	}
	complexRows(p, op, dst, a, b)
	return nil
}

// complexRows runs op on the plan's nest.
func complexRows[C elem.Complex](p *Plan, op elem.Op, dst, a, b []C) {
	if p.length[0] == 0 {
		return
	}
	size, stride := p.axes()
	complexNest(op, size, stride, [maxOperands]int{}, [3][]C{dst, a, b})
}

// complexNest runs op on each innermost row of the nest of axes size
// (outermost first) and strides stride from the offsets base, the outer
// axes walked by an odometer; a nest of no axes is one element.
func complexNest[C elem.Complex](op elem.Op, size []int, stride [maxOperands][]int, base [maxOperands]int, x [3][]C) {
	var buf rowBuffers[C]
	r := len(size)
	if r == 0 {
		complexRow(&buf, op, 1, x, base, [3]int{1, 1, 1})
		return
	}
	var idx [maxAxes]int
	o := nditer.Odometer{Size: size[:r-1], Base: base, Idx: idx[:r-1]}
	for k := range o.Stride {
		o.Stride[k] = stride[k][:r-1]
	}
	o.Seek(0)
	inner := [3]int{stride[0][r-1], stride[1][r-1], stride[2][r-1]}
	for {
		complexRow(&buf, op, size[r-1], x, o.At, inner)
		if !o.Next() {
			return
		}
	}
}

// complexRow runs op on a row of n values of the operands x (dst, a, b),
// starting at index at[k] of x[k] with stride s[k]: dst[j*sd] = a[j*sa]
// op b[j*sb].
func complexRow[C elem.Complex](buf *rowBuffers[C], op elem.Op, n int, x [3][]C, at [maxOperands]int, s [3]int) {
	if s[1] == 0 {
		repeat(buf.a[:min(n, complexPiece)], x[1][at[1]])
	}
	if s[2] == 0 {
		repeat(buf.b[:min(n, complexPiece)], x[2][at[2]])
	}
	for lo := 0; lo < n; lo += complexPiece {
		m := min(complexPiece, n-lo)
		a, b, d := rowPiece(x[1], at[1], s[1], lo, m, &buf.a), rowPiece(x[2], at[2], s[2], lo, m, &buf.b), buf.d[:m]
		if s[0] == 1 {
			d = x[0][at[0]+lo : at[0]+lo+m]
		}
		complexCall(op, d, a, b)
		if s[0] != 1 {
			for j, v := range d {
				x[0][at[0]+(lo+j)*s[0]] = v
			}
		}
	}
}

// complexCall runs elem's call of op (Add, Sub, Mul or Div) on d, a, b.
func complexCall[C elem.Complex](op elem.Op, d, a, b []C) {
	switch op {
	case elem.OpAdd:
		elem.Add(d, a, b)
	case elem.OpSub:
		elem.Sub(d, a, b)
	case elem.OpMul:
		elem.Mul(d, a, b)
	default:
		elem.Div(d, a, b)
	}
}

// rowPiece returns values lo..lo+m of the row of x at index at with
// stride s: x itself where it is contiguous, buf (filled beforehand) where
// it repeats one value, else gathered into buf.
func rowPiece[C any](x []C, at, s, lo, m int, buf *[complexPiece]C) []C {
	switch s {
	case 1:
		return x[at+lo : at+lo+m]
	case 0:
		return buf[:m]
	}
	for j := range m {
		buf[j] = x[at+(lo+j)*s]
	}
	return buf[:m]
}

func repeat[C any](x []C, v C) {
	for i := range x {
		x[i] = v
	}
}

// applyViewComplex is ApplyView on complex values: the checks of the real
// views, then op on each innermost row of the simplified nest.
func applyViewComplex[C elem.Complex](op elem.Op, dst, a, b View[C]) error {
	if err := complexOp[C](op); err != nil {
		return err
	}
	var n viewNest
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameA, a), operandOf(nameB, b)}
	if err := n.plan(ops[:]); err != nil || n.empty {
		return err
	}
	var stride [maxOperands][]int
	for k := range stride {
		stride[k] = n.stride[k][:n.rank]
	}
	complexNest(op, n.size[:n.rank], stride, n.base, [3][]C{dst.Data, a.Data, b.Data})
	return nil
}

// complexOp returns the error for an op that complex values do not have.
func complexOp[C elem.Complex](op elem.Op) error {
	switch op {
	case elem.OpAdd, elem.OpSub, elem.OpMul, elem.OpDiv:
		return nil
	}
	if !op.Valid() {
		return newError(errs(ErrOp), "invalid operation %v", op)
	}
	var zero C
	return newError(errs(ErrOp), "%v is not defined on %T", op, zero)
}
