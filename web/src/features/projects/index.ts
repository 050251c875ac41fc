// The projects feature's public face: what other features may import (lint holds it).
export { foldOutput, parseActionStream, type ActionOutput, type StreamItem } from './api/live';
