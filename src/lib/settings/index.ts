/** What other features may use of settings: nothing yet; its pages and stores are reached through routes. */
export {};
