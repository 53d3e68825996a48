package broadcast

import (
	"fmt"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// Reduction names one of the reductions that ReduceView runs on a view.
type Reduction uint8

// The reductions of ReduceView; each is the call of the same name on
// contiguous data (ReductionLogSumExp is LogSumExp).
const (
	ReductionSum Reduction = iota
	ReductionProd
	ReductionMax
	ReductionMin
	ReductionMean
	ReductionVar
	ReductionStd
	ReductionLogSumExp
)

var reductionNames = [...]string{"sum", "product", "max", "min", "mean", "variance", "standard deviation", "log-sum-exp"}

// String returns the reduction's name as errors give it ("sum", "max", ...).
func (op Reduction) String() string {
	if int(op) < len(reductionNames) {
		return reductionNames[op]
	}
	return fmt.Sprintf("Reduction(%d)", uint8(op))
}

// ReduceView reduces the strided view a over the given axes into dst, with
// the shapes, axes, order and bits of the contiguous call named by op
// (ReduceSum, ReduceProd, ReduceMax, ReduceMin, ReduceMean, ReduceVar,
// ReduceStd, LogSumExp): the values of each output in a's index order, so
// a view gives exactly the bits its contiguous copy would (a transposed
// matrix's column sums are the bits of the row sums of the transpose).
// Mean, Var, Std and LogSumExp take float T (their result type is a's);
// on integers they are an error wrapping ErrOp. Runs contiguous in a
// (an output's values, or one value of consecutive outputs) go through
// the kernels as they are; other views are gathered a buffer at a time.
// dst must not share memory with a.Data; the view is validated first
// (ErrView).
func ReduceView[T elem.Number](op Reduction, dst []T, dstShape Shape, a View[T], axes ...int) error {
	origin, err := a.origin(nameA)
	if err != nil {
		return err
	}
	if int(op) >= len(reductionNames) {
		return newError(errs(ErrOp), "reduction %d is not one of ReduceView's", op)
	}
	var kept, summed [nestRoom]group
	r, err := planReduce(op.String(), dstShape, a.Shape, a.Strides, axes, kept[:0], summed[:0])
	if err != nil {
		return err
	}
	if err := dstShape.checkLen("dst", len(dst)); err != nil {
		return err
	}
	if sharesMemory(dst, a.Data) {
		return newError(errs(ErrOverlap), "dst shares memory with the data of a (shape %v); a reduction needs its own output", a.Shape.Clone())
	}
	r.origin = origin
	switch op {
	case ReductionSum:
		runReduce(fold[T]{}, r, dst, a.Data)
		return nil
	case ReductionProd:
		runReduce(fold[T]{op: foldProd}, r, dst, a.Data)
		return nil
	case ReductionMax, ReductionMin:
		if err := checkNotEmpty(op.String(), r, a.Shape, axes); err != nil {
			return err
		}
		f := fold[T]{op: foldMin}
		if op == ReductionMax {
			f.op = foldMax
		}
		runReduce(f, r, dst, a.Data)
		return nil
	}
	if !kernel.IsFloat[T]() {
		return newError(errs(ErrOp), "the %s of a view is defined on float data, not %T", op, T(0))
	}
	if r.empty {
		return nil
	}
	if unsafe.Sizeof(T(0)) == 4 {
		floatReduction(op, r, kernel.FloatsOf[float32](dst), kernel.FloatsOf[float32](a.Data))
	} else {
		floatReduction(op, r, kernel.FloatsOf[float64](dst), kernel.FloatsOf[float64](a.Data))
	}
	return nil
}

// floatReduction runs the float-only reductions of ReduceView.
func floatReduction[F elem.Float](op Reduction, r reduction, dst, a []F) {
	switch op {
	case ReductionMean:
		meanOf(r, dst, a)
	case ReductionVar, ReductionStd:
		varianceOf(r, dst, a, 0, op == ReductionStd)
	default:
		logSumExpOf(r, dst, a)
	}
}
