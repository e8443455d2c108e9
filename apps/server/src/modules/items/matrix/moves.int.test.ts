import { movesMatrix } from '../../../testing/item-matrix.ts';

movesMatrix();
