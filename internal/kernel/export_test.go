package kernel

// SetHardwareFMA sets whether fma32 takes its math.FMA path, for the tests
// of both paths on any CPU, and returns the setting to restore.
func SetHardwareFMA(on bool) (was bool) {
	was, hardwareFMA = hardwareFMA, on
	return was
}
