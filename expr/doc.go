// Package expr evaluates chains of elementwise operations over broadcast
// operands in one pass over memory.
//
// Run op by op, (x - mean) / std reads and writes the whole array twice,
// and max(x*w + b, 0) three times, with a temporary per step; past the
// caches every step costs as much memory traffic as the whole expression
// needs. A Plan instead runs every op of the expression on a small part
// of the output before it moves on: each input is read once and the output
// written once, with streaming stores where elem.Add would use them. Runs
// in rows of 2 KiB or more, of more than a few thousand elements or past
// the caches, take the fused kernels (see Plan.Fused): generated assembly
// that interprets the plan's ops a chunk at a time (4 KiB; 1 KiB with a
// division or square root; 512 bytes when the output streams) with the
// temporaries in L1 and scalars and columns in registers, one call per
// block of rows; smaller runs and short rows run as calls of elem's
// kernels on blocks sized from the L1d, a run of one block with its calls
// worked out when the plan is compiled. Short rows against rows repeated
// along them, as channels-last data against a value per channel ((480,
// 640, 3) - (3)), run as broadcast runs them: the repeated rows expanded
// into a tile of a few KiB, and the data as rows of the tile's length.
//
// Expressions are built with the generic functions of this package (Add,
// Mul, Max, Sqrt, FMA, Where, ...), which are checked by the compiler: the
// ops defined on floats only take a float Node. Parse reads the same
// expressions from text. Inputs are arrays with shapes, which broadcast
// against each other under the NumPy rule, and scalars bound at every run.
//
// Convert converts between element types within a plan, as elem.Convert
// does (floats to integers truncated toward zero and saturated), so that
// uint8 pixels converted to float32, normalised and converted back are one
// pass: the inputs may then be of several types, each bound with an Arg of
// its own (Run takes them as Bindings), and each conversion runs block by
// block with the ops on both sides of it. Plans with conversions run their
// ops as calls of elem's kernels, not in the fused kernels.
//
// Results are bit for bit those of running the same ops one at a time
// through elem: no contraction of a*b + c into an FMA (write FMA for that),
// no reassociation, and NaN payloads as elem's kernels give them. Broadcast
// operands (scalars, rows, columns) go to the kernels' scalar and 2-D forms
// directly; nothing is materialised at the output's size.
//
// A Plan is immutable and safe for concurrent use. Run allocates nothing
// once warm: the temporaries are a spare kept in the plan while runs
// follow one another, and come from a pool in the plan once runs overlap.
// Bad input is an error naming the input and the shapes, and nothing is
// written then.
package expr
