/** Load tool: measures Kairos's hot paths on the embedded infrastructure of this machine. */
package dev.kairos.bench;
