package broadcast

import (
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// A fold is what the reduction machinery computes for each output: its
// values, each mapped by an optional transform first, combined by one
// operation in the canonical order of elem.Sum (value i of an output into
// accumulator i mod Lanes, then the pairwise tree over the accumulators).
// For max and min the order changes no bits but a NaN's, which the result
// takes from the values themselves.
type fold[T elem.Number] struct {
	op   foldOp
	each *transform[T] // nil: the values are folded as they are
}

// foldOp is a fold's operation.
type foldOp uint8

const (
	foldSum foldOp = iota
	foldProd
	foldMax
	foldMin
)

// transform maps each value x of output o to g(x - shift[o]) before it is
// folded: the squared deviations of a variance, the shifted exponentials
// of a log-sum-exp.
type transform[T elem.Number] struct {
	shift []T  // one per output, in dst's order
	exp   bool // g is exp; else g(d) = d*d, rounded to T
	one   [1]T // the shift of run's output, where a kernel reads it
}

// startLanes is the accumulators before the first value: the operation's
// identity, which leaves every value's bits as they are (-0 for a sum, 1
// for a product, -Inf or +Inf, or an integer type's least or greatest
// value, for max and min).
func (f fold[T]) startLanes() (st [kernel.Lanes]T) {
	switch f.op {
	case foldProd:
		for i := range st {
			st[i] = 1
		}
	case foldMax:
		kernel.MaxStart(&st)
	case foldMin:
		kernel.MinStart(&st)
	default:
		kernel.SumStart(&st)
	}
	return st
}

// start is one accumulator of startLanes.
func (f fold[T]) start() T {
	st := f.startLanes()
	return st[0]
}

// rows sets the m rows of n elements of dst to the operation on the rows of
// x and y, row by row.
func (f fold[T]) rows(m, n int, dst []T, ldd int, x []T, ldx int, y []T, ldy int) {
	switch f.op {
	case foldProd:
		kernel.Mul(kernel.VV, m, n, dst, ldd, x, ldx, y, ldy, false)
	case foldMax:
		kernel.Max(kernel.VV, m, n, dst, ldd, x, ldx, y, ldy, false)
	case foldMin:
		kernel.Min(kernel.VV, m, n, dst, ldd, x, ldx, y, ldy, false)
	default:
		kernel.Add(kernel.VV, m, n, dst, ldd, x, ldx, y, ldy, false)
	}
}

// lanes folds the values of run into the Lanes accumulators acc, value j
// into accumulator j mod Lanes.
func (f fold[T]) lanes(acc, run []T) {
	switch f.op {
	case foldProd:
		prodLanes(acc, run)
	case foldMax:
		kernel.MaxOf(acc, run)
	case foldMin:
		kernel.MinOf(acc, run)
	default:
		kernel.Sum(acc, run)
	}
}

// lanesOf is lanes for the values of one output whose shift is v (0
// without a transform): where the transform squares, run holds the values
// themselves, whose squared deviations from v SqDev folds as it reads
// them (the bits of a subtraction pass, a multiply pass and Sum); where it
// is exp, run holds exp(x - v) already (transform.run).
func (f fold[T]) lanesOf(acc, run []T, v T) {
	if f.squares() {
		kernel.SqDev(acc, run, v)
		return
	}
	f.lanes(acc, run)
}

// squares reports whether the fold's transform is a squared deviation.
func (f fold[T]) squares() bool { return f.each != nil && !f.each.exp }

// prodLanes is lanes for a product. No target asks products to be fast;
// the loop keeps the canonical order with no kernel of its own.
func prodLanes[T elem.Number](acc, run []T) {
	acc = acc[:kernel.Lanes]
	for len(run) >= len(acc) {
		r := run[:len(acc)]
		for j := range acc {
			acc[j] *= r[j]
		}
		run = run[len(acc):]
	}
	for j, x := range run {
		acc[j] *= x
	}
}

// tree combines the Lanes accumulators into the result.
func (f fold[T]) tree(acc []T) T {
	switch f.op {
	case foldProd:
		var t [kernel.Lanes]T
		copy(t[:], acc)
		for h := kernel.Lanes / 2; h > 0; h /= 2 {
			for j := range h {
				t[j] *= t[j+h]
			}
		}
		return t[0]
	case foldMax:
		return kernel.Greatest(acc)
	case foldMin:
		return kernel.Least(acc)
	}
	return kernel.SumTree(acc)
}

// nanOf is the result for a first NaN x among the values: quiet for the
// arithmetic folds, as elem.Sum's; as it is for max and min, as MaxOf's.
func (f fold[T]) nanOf(x T) T {
	if f.op == foldMax || f.op == foldMin {
		return x
	}
	return kernel.Quiet(x)
}

// gather sets row[r] to the value a[bases[r]+off], combined with
// a[bases[r]+with] when two is set (offsets may be negative in a view);
// the values are transformed first when the fold has a transform, with
// shift the outputs' shifts.
func (f fold[T]) gather(row, tmp, a []T, bases []int, off, with int, two bool, shift []T) {
	bases = bases[:len(row)]
	if f.each != nil {
		gatherOne(row, a, bases, off)
		f.each.rows(1, len(row), row, 0, row, 0, shift)
		if two {
			tmp = tmp[:len(row)]
			gatherOne(tmp, a, bases, with)
			f.each.rows(1, len(row), tmp, 0, tmp, 0, shift)
			f.rows(1, len(row), row, 0, row, 0, tmp, 0)
		}
		return
	}
	if !two {
		gatherOne(row, a, bases, off)
		return
	}
	switch f.op {
	case foldProd:
		for r, at := range bases {
			row[r] = a[at+off] * a[at+with]
		}
	case foldMax:
		for r, at := range bases {
			row[r] = max(a[at+off], a[at+with])
		}
	case foldMin:
		for r, at := range bases {
			row[r] = min(a[at+off], a[at+with])
		}
	default:
		for r, at := range bases {
			row[r] = a[at+off] + a[at+with]
		}
	}
}

// load sets row to the values of x (transformed when the fold has a
// transform, with shift the outputs' shifts), combined with those of y
// when y is not nil; tmp has room for a row.
func (f fold[T]) load(row, tmp, x, y []T, shift []T) {
	w := len(row)
	if f.each != nil {
		f.each.rows(1, w, row, w, x, w, shift)
		switch {
		case y != nil && f.squares(): // g(y) + g(x): g(x) + g(y)'s value; a NaN result is replaced after
			kernel.SqDiffAdd(kernel.VVV, 1, w, row, w, y, w, shift, 0, row, w, false)
		case y != nil:
			f.each.rows(1, w, tmp, w, y, w, shift)
			f.rows(1, w, row, w, row, w, tmp, w)
		}
		return
	}
	if y == nil {
		copy(row, x)
		return
	}
	f.rows(1, w, row, w, x, w, y, w)
}

// gatherOne sets row[r] to a[bases[r]+off].
func gatherOne[T elem.Number](row, a []T, bases []int, off int) {
	bases = bases[:len(row)]
	for r, at := range bases {
		row[r] = a[at+off]
	}
}

// rows sets the m rows of n elements of dst to g(x - shift), shift one row
// of n that every row of x meets.
func (t *transform[T]) rows(m, n int, dst []T, ldd int, x []T, ldx int, shift []T) {
	if t.exp {
		t.expSub(kernel.VV, m, n, dst, ldd, x, ldx, shift, 0)
		return
	}
	kernel.Sub(kernel.VV, m, n, dst, ldd, x, ldx, shift, 0, false)
	kernel.Mul(kernel.VV, m, n, dst, ldd, dst, ldd, dst, ldd, false)
}

// run sets dst to exp(x - s) for the values x of one output whose shift is
// s (an exp transform's; a squaring one folds the values as they are, see
// fold.lanesOf).
func (t *transform[T]) run(dst, x []T, s T) {
	n := len(x)
	t.one[0] = s
	t.expSub(kernel.VS, 1, n, dst, n, x, n, t.one[:], 0)
}

// expSub is kernel.ExpSub on T, one of the float types: only they have an
// exp transform, and the element type may be one defined on them.
func (t *transform[T]) expSub(k kernel.Kind, m, n int, dst []T, ldd int, x []T, ldx int, shift []T, lds int) {
	if unsafe.Sizeof(T(0)) == 4 {
		f := kernel.FloatsOf[float32, T]
		kernel.ExpSub(k, m, n, f(dst), ldd, f(x), ldx, f(shift), lds, false)
		return
	}
	f := kernel.FloatsOf[float64, T]
	kernel.ExpSub(k, m, n, f(dst), ldd, f(x), ldx, f(shift), lds, false)
}

// shifts returns the transform's shifts of the n outputs from output o on,
// nil when the fold has no transform.
func (f fold[T]) shifts(o, n int) []T {
	if f.each == nil {
		return nil
	}
	return f.each.shift[o : o+n]
}

// ofNothing is the result over no values: +0 for a sum (of transformed
// values too), 1 for a product. Max and min have none; their callers
// reject such reductions first.
func (f fold[T]) ofNothing() T {
	if f.op == foldProd {
		return 1
	}
	return 0
}
