// A document this server will not read, with the reason a person can act on ("The Word document is
// damaged …"). Its own module: the archive checks and the extractors both throw it, and the extractors
// import the archive checks.
export class UnsupportedDocument extends Error {}
