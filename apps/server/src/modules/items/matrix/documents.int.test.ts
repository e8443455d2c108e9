import { documentMatrix } from '../../../testing/item-matrix.ts';

documentMatrix();
