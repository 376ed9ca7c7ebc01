//go:build race

package cli_test

// raceEnabled: under -race the fleet's scale test checks its query count
// but not its time budget, which the detector's slowdown of JSON
// decoding (several times) alone would exceed.
const raceEnabled = true
