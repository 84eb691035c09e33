/**
 * Node's arguments for a TypeScript file run in its own process as the server's code runs: through
 * tsx, under React's server condition (where the "server-only" marker of db/ and app/_services loads).
 */
export const SERVER_TSX_ARGS = ["--conditions=react-server", "--import", "tsx"];
