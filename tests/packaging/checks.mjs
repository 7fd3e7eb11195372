// One line per check of a packaging script, and its closing count line (`NAME: N passed, M failed`,
// which tests/packaging/run.sh sums).

/** A tally: `report(name, good, detail)` prints a check (its detail when it failed); `done()` the count line. */
export function checks(name) {
  let passed = 0;
  let failed = 0;
  return {
    report(check, good, detail) {
      good ? passed++ : failed++;
      console.log(`${good ? "pass" : "FAIL"}  ${check}`);
      if (!good) console.log(`      ${JSON.stringify(detail)}`);
    },
    /** Prints the count line; the exit status the script should end with. */
    done() {
      console.log(`${name}: ${passed} passed, ${failed} failed`);
      return failed ? 1 : 0;
    },
  };
}
