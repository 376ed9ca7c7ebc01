//go:build race

package ui

// raceEnabled shrinks the 100,000-key fixture under -race, where building
// it takes a minute; the byte budget does not depend on the key count.
const raceEnabled = true
