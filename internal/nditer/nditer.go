// Package nditer walks the outer axes of a strided N-d loop nest: the one
// odometer behind broadcast's plans and views. Each step is one block of
// the nest's inner axes, at the offsets the odometer keeps for every
// operand; strides may be of any sign, zero included.
package nditer

// Operands is how many operands an odometer keeps offsets for: dst and up
// to three inputs.
const Operands = 4

// Odometer walks the axes Size (outermost first), keeping operand k's
// offset At[k] at the current index: Base[k] plus the sum of the index
// times Stride[k] over the axes. Idx must have len(Size) elements; the
// caller provides it (on its stack) so that walking allocates nothing.
type Odometer struct {
	Size   []int
	Stride [Operands][]int
	Base   [Operands]int
	Idx    []int
	At     [Operands]int
}

// Seek moves the odometer to step q, counting the indices in row-major
// order from 0.
func (o *Odometer) Seek(q int) {
	o.At = o.Base
	for i := len(o.Size) - 1; i >= 0; i-- {
		o.Idx[i] = q % o.Size[i]
		q /= o.Size[i]
		for k := range o.At {
			o.At[k] += o.Idx[i] * o.Stride[k][i]
		}
	}
}

// Next advances the odometer by one step and reports false past the last.
func (o *Odometer) Next() bool {
	for i := len(o.Size) - 1; i >= 0; i-- {
		for k := range o.At {
			o.At[k] += o.Stride[k][i]
		}
		if o.Idx[i]++; o.Idx[i] < o.Size[i] {
			return true
		}
		o.Idx[i] = 0
		for k := range o.At {
			o.At[k] -= o.Stride[k][i] * o.Size[i]
		}
	}
	return false
}
