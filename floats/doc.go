// Package floats is a drop-in for gonum.org/v1/gonum/floats (v0.17.0) on
// elem's kernels: the same functions with the same signatures, panics and
// special cases, so that changing the import path from
// "gonum.org/v1/gonum/floats" to "github.com/simdkit/elem/floats" is the
// whole port.
//
// The elementwise functions (Add, AddTo, AddConst, AddScaled, AddScaledTo,
// Sub, SubTo, Mul, MulTo, Div, DivTo, Scale, ScaleTo) give exactly the bits
// of gonum's on amd64, NaN payloads included: AddScaled and AddScaledTo
// round alpha*s[i] and then the sum, as gonum's assembly does, and never
// fuse them into one rounding. Span, LogSpan, SumCompensated, the searches
// (Max, MinIdx, NearestIdx, Find, Within, ...), the sorts and the
// comparisons (Equal, EqualApprox, Same, ...) give gonum's results exactly.
//
// The sums and products (Sum, Dot, Prod, Norm, Distance, LogSumExp) are
// elem's, in elem's canonical order (see elem.Sum) rather than gonum's, so
// their last bits may differ from gonum's, while CumSum and CumProd add and
// multiply in index order as gonum's pure-Go code does.
//
// As in gonum, dst may be one of the inputs. Unlike elem's calls, which
// panic then, a dst that partly overlaps an input is computed element by
// element in index order, as gonum's pure-Go code computes it.
//
// The code of this package follows gonum's closely: see LICENSE-gonum.
package floats
