package dev.accelbridge.core;

/**
 * Whether a backend computed a case wrongly, as far as was checked ({@link RunResult#defectFinding()}): a dtype variant's
 * distance from fp32 is its designed loss only where the backend was compared with the variant's own native CPU run and
 * agrees with it; without that comparison the loss and the backend's own error are not told apart.
 */
@PublicApi
public enum Defect {
    /** The output is wrong against the reference the verdict rests on. */
    FOUND,
    /** Not a defect: within tolerance, the reference itself, or a variant's loss its own native run shares. */
    NONE,
    /** A dtype variant outside its bound against fp32 whose own native CPU run could not be compared. */
    UNKNOWN
}
